package dev.derive.coordinator.progress;

import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.dispatch.StepDispatcher;
import dev.derive.coordinator.dispatch.StepMessages;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRun;
import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Applies step results to jobs; routing lives here, never in a worker. A result changes its job
 * only through a conditional update on the expected step of a PENDING or RUNNING job, so a
 * duplicate SQS delivery or a result of a superseded execution changes nothing. On success of an
 * earlier step the next step is dispatched first and the job advanced second: should the dispatch
 * fail, the result is retried from the queue with the job unchanged; should a concurrent duplicate
 * win the update, the extra step message only makes a worker find its content-addressed output
 * already present.
 */
public final class ProgressTracker {
  private static final Logger LOG = Logger.getLogger(ProgressTracker.class.getName());

  private final JobStore store;
  private final StepDispatcher dispatcher;
  private final Duration lease;
  private final Clock clock;

  /**
   * @param lease lease granted on each advance ({@code JOB_LEASE_SECONDS})
   * @param clock source of "now"
   */
  public ProgressTracker(JobStore store, StepDispatcher dispatcher, Duration lease, Clock clock) {
    this.store = store;
    this.dispatcher = dispatcher;
    this.lease = lease;
    this.clock = clock;
  }

  /**
   * Applies {@code result} to its job.
   *
   * @throws dev.derive.coordinator.claim.JobStoreException if DynamoDB fails (retry the message)
   * @throws dev.derive.coordinator.dispatch.DispatchFailedException if the next step could not be
   *     sent (retry the message)
   */
  public ProgressOutcome apply(StepResult result) {
    Optional<Job> found = store.find(result.jobId());
    if (found.isEmpty()) {
      LOG.warning(() -> "step result for unknown job " + result.jobId() + " dropped");
      return ProgressOutcome.UNKNOWN_JOB;
    }
    Job job = found.get();
    int index = result.stepIndex();
    if (job.status().isTerminal()
        || job.currentStep() != index
        || index < 0
        || index >= job.plan().size()) {
      LOG.info(
          () ->
              "step result "
                  + index
                  + " of job "
                  + job.jobId()
                  + " ignored: job is "
                  + job.status()
                  + " at step "
                  + job.currentStep());
      return ProgressOutcome.IGNORED;
    }
    Instant now = clock.instant();
    if (!result.succeeded()) {
      StepError error = result.error();
      boolean changed =
          store.recordFailure(
              job.jobId(),
              index,
              run(result, StepRun.FAILED),
              new JobError(error.type(), error.detail(), index, error.retryable()),
              now);
      return changed ? ProgressOutcome.FAILED : ProgressOutcome.IGNORED;
    }
    boolean last = job.plan().isLast(index);
    if (!last) {
      dispatcher.dispatch(StepMessages.of(job, index + 1, result.output()));
    }
    boolean changed =
        store.recordSuccess(
            job.jobId(), index, run(result, StepRun.SUCCEEDED), last, now, now.plus(lease));
    if (!changed) {
      return ProgressOutcome.IGNORED;
    }
    return last ? ProgressOutcome.SUCCEEDED : ProgressOutcome.ADVANCED;
  }

  private static StepRun run(StepResult result, String status) {
    return new StepRun(
        result.capability(),
        status,
        Instant.ofEpochMilli(result.startedAtMillis()),
        Instant.ofEpochMilli(result.finishedAtMillis()),
        result.outputBytes(),
        result.reused(),
        result.attempt());
  }
}
