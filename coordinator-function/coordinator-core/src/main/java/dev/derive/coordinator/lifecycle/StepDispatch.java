package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.JobStoreException;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.dispatch.StepDispatcher;
import dev.derive.coordinator.job.Job;
import dev.derive.protocol.message.StepMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Sends a job's step to its queue and marks it QUEUED with its lease, and knows the leases: a
 * dispatched step's lease is its capability's whole retry horizon.
 */
final class StepDispatch {
  private static final System.Logger LOG = System.getLogger(StepDispatch.class.getName());

  /**
   * How long after an advance was recorded its next step counts as being sent by whoever recorded
   * it: the progress function's {@code Timeout} in {@code template.yaml} (30 s), the longest its
   * applier can still be at work. Until then a copy of the same result that finds the step not yet
   * queued is {@link StepInProgressException in progress}; after it, the applier has died and the
   * copy sends the step (Powertools' idempotency records expire with the function's remaining time
   * likewise).
   */
  static final Duration IN_PROGRESS_WINDOW = Duration.ofSeconds(30);

  private final JobStore store;
  private final StepDispatcher dispatcher;
  private final StepLeases stepLease;
  private final Clock clock;

  /**
   * @param stepLease the lease of a dispatched step, by capability: its whole retry horizon
   */
  StepDispatch(JobStore store, StepDispatcher dispatcher, StepLeases stepLease, Clock clock) {
    this.store = store;
    this.dispatcher = dispatcher;
    this.stepLease = stepLease;
    this.clock = clock;
  }

  /**
   * Sends {@code message}, step {@code index} of {@code job}, then marks the step QUEUED with its
   * lease as retry horizon. A store failure of that mark is only logged: the message is on its way,
   * and the worker's started report renews the lease as well.
   *
   * @throws DispatchFailedException if the message could not be queued (nothing is marked)
   */
  void send(Job job, int index, StepMessage message) {
    dispatcher.dispatch(message);
    Instant leaseEnd = clock.instant().plus(leaseOf(job, index));
    try {
      store.markDispatched(job.jobId(), job.executionId(), index, leaseEnd);
    } catch (JobStoreException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          () ->
              "step "
                  + index
                  + " of job "
                  + job.jobId()
                  + " was sent but not marked queued: "
                  + e.getMessage());
    }
  }

  /** The lease of step {@code index} of {@code job} once dispatched. */
  Duration leaseOf(Job job, int index) {
    return stepLease.of(job.plan().step(index).capability());
  }

  /**
   * The lease an advance writes before it knows the next step's capability: the longest horizon of
   * any; the mark that the step is queued sets its own at once. (Only a progress function that dies
   * between the advance and the send leaves it, and then the redelivered result sends the step.)
   */
  Duration longestLease() {
    return stepLease.longest();
  }
}
