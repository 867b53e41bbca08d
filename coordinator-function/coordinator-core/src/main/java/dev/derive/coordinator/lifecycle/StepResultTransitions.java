package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.StepWrite;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.dispatch.StepMessages;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.plan.DerivativeFingerprint;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * The state machine of a worker's step result: which conditional write it makes and what is sent
 * after it. A result applies only when it belongs to the job's current execution and step; a
 * success is recorded first and the next step dispatched second, and a repeated success whose next
 * step was never queued dispatches it again ({@code docs/job-lifecycle.md}).
 */
final class StepResultTransitions {
  private static final Logger LOG = Logger.getLogger(StepResultTransitions.class.getName());

  private final JobStore store;
  private final StepDispatch steps;
  private final Clock clock;
  private final CompletionNotifier notifier;

  StepResultTransitions(
      JobStore store, StepDispatch steps, Clock clock, CompletionNotifier notifier) {
    this.store = store;
    this.steps = steps;
    this.clock = clock;
    this.notifier = notifier;
  }

  /** See {@link JobLifecycle#apply}. */
  ProgressOutcome apply(StepResult result) {
    Optional<Job> found;
    if (endsItsJob(result)) {
      // The common end of a job in one write, no read before it; any other case is decided
      // below on the record the write that did not apply returned.
      StepWrite write =
          store.recordLastSuccess(
              result.jobId(),
              result.executionId(),
              result.stepIndex(),
              run(result, StepRecord.SUCCEEDED),
              clock.instant());
      if (write.recorded()) {
        notifier.announce(result.jobId());
        return ProgressOutcome.SUCCEEDED;
      }
      found = write.current();
    } else if (advancesItsJob(result)) {
      // Likewise the advance: the write returns the job, the next step is dispatched from it.
      Instant now = clock.instant();
      StepWrite write =
          store.recordAdvance(
              result.jobId(),
              result.executionId(),
              result.stepIndex(),
              run(result, StepRecord.SUCCEEDED),
              now,
              now.plus(steps.longestLease()));
      if (write.recorded()) {
        Job job = write.current().orElseThrow();
        sendNext(job, result.stepIndex() + 1, result.output());
        return ProgressOutcome.ADVANCED;
      }
      found = write.current();
    } else {
      found = store.find(result.jobId());
    }
    if (found.isEmpty()) {
      LOG.warning(() -> "step result for unknown job " + result.jobId() + " dropped");
      return ProgressOutcome.UNKNOWN_JOB;
    }
    return applyTo(found.get(), result);
  }

  /** Applies {@code result} to {@code job} as read, after the one-write paths did not apply. */
  private ProgressOutcome applyTo(Job job, StepResult result) {
    int index = result.stepIndex();
    if (endsItsJob(result) && job.status() != JobStatus.SUCCEEDED && !atItsStep(job, result)) {
      return adopt(job, result);
    }
    if (!Objects.equals(result.executionId(), job.executionId())) {
      LOG.info(
          () ->
              "step result "
                  + index
                  + " of job "
                  + job.jobId()
                  + " belongs to execution "
                  + result.executionId()
                  + ", not the current "
                  + job.executionId()
                  + ": ignored");
      if (job.status().isTerminal()) {
        // an end this result brought about under another execution id (adopted) may be pending
        notifier.announce(job.jobId());
      }
      return ProgressOutcome.SUPERSEDED;
    }
    if (job.status().isTerminal()) {
      notifier.announce(job.jobId()); // if the write that ended it was not followed by publication
      return ignored(result, job);
    }
    if (index < 0 || index >= job.plan().size()) {
      return ignored(result, job);
    }
    Instant now = clock.instant();
    if (job.currentStep() != index) {
      return index + 1 == job.currentStep() && result.succeeded()
          ? redispatchIfNeverQueued(job, result.output())
          : ignored(result, job);
    }
    if (result.isStarted()) {
      boolean changed =
          store.recordStarted(
              job.jobId(),
              job.executionId(),
              index,
              run(result, StepRecord.RUNNING),
              now,
              now.plus(steps.leaseOf(job, index)));
      return changed ? ProgressOutcome.STARTED : ignored(result, job);
    }
    if (!result.succeeded()) {
      StepError error = result.error();
      boolean changed =
          store.recordFailure(
              job.jobId(),
              job.executionId(),
              index,
              run(result, StepRecord.FAILED),
              new JobError(error.type(), error.detail(), index, error.retryable()),
              now,
              RetryBackoff.streakAfter(job, error.retryable()),
              RetryBackoff.retryAfter(job, error.retryable(), now));
      if (!changed) {
        // An SDK retry of a write whose first attempt applied finds it done: publish its end.
        notifier.announce(job.jobId());
        return ignored(result, job);
      }
      notifier.announce(job.jobId());
      return ProgressOutcome.FAILED;
    }
    boolean last = job.plan().isLast(index);
    Duration nextLease = last ? Duration.ZERO : steps.leaseOf(job, index + 1);
    boolean changed =
        store.recordSuccess(
            job.jobId(),
            job.executionId(),
            index,
            run(result, StepRecord.SUCCEEDED),
            last,
            now,
            now.plus(nextLease));
    if (!changed) {
      notifier.announce(job.jobId()); // as after a failure's write that did not apply
      return ignored(result, job);
    }
    if (last) {
      notifier.announce(job.jobId());
      return ProgressOutcome.SUCCEEDED;
    }
    sendNext(job, index + 1, result.output());
    return ProgressOutcome.ADVANCED;
  }

  /**
   * The derivative is in the bucket (a last step's success, content-addressed: the right bytes) but
   * the record is of another execution or FAILED: the bytes decide. A running execution that
   * replaced the one that made them ends SUCCEEDED with them (its own step would make the same
   * bytes; its callbacks are called back with this end); a FAILED record, once its failure is
   * announced, becomes a new execution that SUCCEEDED, announced with its own event ({@code
   * docs/job-lifecycle.md}, "POST, GET and the events agree").
   */
  private ProgressOutcome adopt(Job job, StepResult result) {
    boolean failed = job.status() == JobStatus.FAILED;
    if (failed) {
      notifier.announce(job.jobId()); // its failure first, if still pending
    }
    int last = job.plan().size() - 1;
    boolean changed =
        store.recordAdopted(
            job.jobId(),
            job.executionId(),
            job.status(),
            failed ? UUID.randomUUID().toString() : job.executionId(),
            last,
            run(result, StepRecord.SUCCEEDED),
            clock.instant());
    if (!changed) {
      notifier.announce(job.jobId());
      return ignored(result, job);
    }
    LOG.info(
        () ->
            "job "
                + job.jobId()
                + " was "
                + job.status()
                + " in execution "
                + job.executionId()
                + "; its derivative, made by execution "
                + result.executionId()
                + ", ends it SUCCEEDED");
    notifier.announce(job.jobId());
    return ProgressOutcome.SUCCEEDED;
  }

  /** Whether {@code job} is at {@code result}'s step of {@code result}'s execution, not ended. */
  private static boolean atItsStep(Job job, StepResult result) {
    return Objects.equals(result.executionId(), job.executionId())
        && !job.status().isTerminal()
        && job.currentStep() == result.stepIndex();
  }

  /**
   * Step {@code index - 1}'s success came again: dispatch step {@code index} if never queued, once
   * the delivery that recorded the advance can no longer be sending it itself.
   *
   * @throws StepInProgressException within {@link StepDispatch#IN_PROGRESS_WINDOW} of the advance
   */
  private ProgressOutcome redispatchIfNeverQueued(Job job, ObjectRef previousOutput) {
    int index = job.currentStep();
    if (!StepRecord.PENDING.equals(job.steps().get(index).status())) {
      return ProgressOutcome.IGNORED;
    }
    if (clock.instant().isBefore(job.updatedAt().plus(StepDispatch.IN_PROGRESS_WINDOW))) {
      throw new StepInProgressException(job.jobId(), index);
    }
    sendNext(job, index, previousOutput);
    LOG.info(() -> "step " + index + " of job " + job.jobId() + " was never queued: dispatched");
    return ProgressOutcome.REDISPATCHED;
  }

  private void sendNext(Job job, int index, ObjectRef previousOutput) {
    steps.send(job, index, StepMessages.of(job, index, previousOutput));
  }

  private static ProgressOutcome ignored(StepResult result, Job job) {
    LOG.info(
        () ->
            "step result "
                + result.stepIndex()
                + " of job "
                + job.jobId()
                + " ignored: job is "
                + job.status()
                + " at step "
                + job.currentStep());
    return ProgressOutcome.IGNORED;
  }

  /**
   * Whether {@code result} reports a success that wrote the job's derivative itself ({@code
   * derivatives/<jobId>}): only the last step of a plan writes there, intermediates go elsewhere.
   * The store's write checks that it is the last step all the same.
   */
  private static boolean endsItsJob(StepResult result) {
    return finishedWithOutput(result) && writesItsDerivative(result);
  }

  /**
   * Whether {@code result} reports a success that wrote an intermediate (anything but {@code
   * derivatives/<jobId>}): not the last step, so the job advances. The store's write checks it.
   */
  private static boolean advancesItsJob(StepResult result) {
    return finishedWithOutput(result) && !writesItsDerivative(result);
  }

  private static boolean finishedWithOutput(StepResult result) {
    return result.succeeded() && !result.isStarted() && result.output() != null;
  }

  private static boolean writesItsDerivative(StepResult result) {
    return DerivativeFingerprint.objectKey(result.jobId()).equals(result.output().key());
  }

  private static StepRecord run(StepResult result, String status) {
    return new StepRecord(
        result.capability(),
        status,
        Instant.ofEpochMilli(result.startedAtMillis()),
        result.isStarted() ? null : Instant.ofEpochMilli(result.finishedAtMillis()),
        result.outputBytes(),
        result.reused(),
        result.attempt(),
        result.summary());
  }
}
