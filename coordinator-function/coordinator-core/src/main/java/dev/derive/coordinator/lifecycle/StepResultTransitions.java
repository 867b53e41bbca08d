package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.StepSuccess;
import dev.derive.coordinator.claim.StepWrite;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.dispatch.StepMessages;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.job.StepStatus;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.StepError;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The state machine of a worker's step result: which conditional write it makes and what is sent
 * after it. A result applies only when it belongs to the job's current execution and step; a
 * success is recorded first and the next step dispatched second, and a repeated success whose next
 * step was never queued dispatches it again ({@code docs/job-lifecycle.md}).
 */
final class StepResultTransitions {
  private static final System.Logger LOG = System.getLogger(StepResultTransitions.class.getName());

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

  /** See {@link JobProgress#apply}. */
  ProgressOutcome apply(StepReport report) {
    Optional<Job> found;
    if (report instanceof StepReport.Succeeded success) {
      // The common case in one write, no read before it: the job ends or advances as the report
      // says (the next step's lease the longest, its capability not known yet); any other case is
      // decided below on the record the write that did not apply returned.
      Instant now = clock.instant();
      StepWrite write =
          store.recordSuccess(
              success(success, success.lastStep(), now, now.plus(steps.longestLease())));
      if (write.recorded()) {
        return recorded(write, success.lastStep(), success);
      }
      found = write.current();
    } else {
      found = store.find(report.jobId());
    }
    if (found.isEmpty()) {
      LOG.log(
          System.Logger.Level.WARNING,
          () -> "step result for unknown job " + report.jobId() + " dropped");
      return ProgressOutcome.UNKNOWN_JOB;
    }
    return applyTo(found.get(), report);
  }

  /** {@code success} as the store records it. */
  private static StepSuccess success(
      StepReport.Succeeded success, boolean lastStep, Instant now, Instant nextLease) {
    StepRecord run = success.record(StepStatus.SUCCEEDED);
    return lastStep
        ? StepSuccess.last(success.jobId(), success.executionId(), success.stepIndex(), run, now)
        : StepSuccess.advance(
            success.jobId(), success.executionId(), success.stepIndex(), run, now, nextLease);
  }

  /**
   * After {@code write} recorded {@code success}: the job ended (announced), or it went on to the
   * next step (sent, from the job as written).
   */
  private ProgressOutcome recorded(
      StepWrite write, boolean lastStep, StepReport.Succeeded success) {
    if (lastStep) {
      notifier.announce(success.jobId());
      return ProgressOutcome.SUCCEEDED;
    }
    sendNext(write.current().orElseThrow(), success.stepIndex() + 1, success.output());
    return ProgressOutcome.ADVANCED;
  }

  /** Applies {@code result} to {@code job} as read, after the one-write paths did not apply. */
  private ProgressOutcome applyTo(Job job, StepReport result) {
    int index = result.stepIndex();
    if (result instanceof StepReport.Succeeded success
        && success.lastStep()
        && job.status() != JobStatus.SUCCEEDED
        && !atItsStep(job, result)) {
      return adopt(job, result);
    }
    if (!Objects.equals(result.executionId(), job.executionId())) {
      LOG.log(
          System.Logger.Level.INFO,
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
      return index + 1 == job.currentStep() && result instanceof StepReport.Succeeded success
          ? redispatchIfNeverQueued(job, success.output())
          : ignored(result, job);
    }
    return switch (result) {
      case StepReport.Started started -> {
        boolean changed =
            store.recordStarted(
                job.jobId(),
                job.executionId(),
                index,
                started.record(StepStatus.RUNNING),
                now,
                now.plus(steps.leaseOf(job, index)));
        yield changed ? ProgressOutcome.STARTED : ignored(result, job);
      }
      case StepReport.Failed failed -> {
        StepError error = failed.error();
        boolean changed =
            store.recordFailure(
                job.jobId(),
                job.executionId(),
                index,
                failed.record(StepStatus.FAILED),
                new JobError(error.type(), error.detail(), index, error.retryable()),
                now,
                RetryBackoff.streakAfter(job, error.retryable()),
                RetryBackoff.retryAfter(job, error.retryable(), now));
        // An SDK retry of a write whose first attempt applied finds it done: publish its end.
        notifier.announce(job.jobId());
        yield changed ? ProgressOutcome.FAILED : ignored(result, job);
      }
      case StepReport.Succeeded success -> recordSuccess(job, success, now);
    };
  }

  /**
   * A success of {@code job}'s current step whose report's "last step" is not what {@code job}'s
   * plan says (the one write did not apply): written again as the plan has it.
   */
  private ProgressOutcome recordSuccess(Job job, StepReport.Succeeded success, Instant now) {
    int index = success.stepIndex();
    boolean last = job.plan().isLast(index);
    Duration nextLease = last ? Duration.ZERO : steps.leaseOf(job, index + 1);
    StepWrite write = store.recordSuccess(success(success, last, now, now.plus(nextLease)));
    if (!write.recorded()) {
      notifier.announce(job.jobId()); // as after a failure's write that did not apply
      return ignored(success, job);
    }
    return recorded(write, last, success);
  }

  /**
   * The derivative is in the bucket (a last step's success, content-addressed: the right bytes) but
   * the record is of another execution or FAILED: the bytes decide. A running execution that
   * replaced the one that made them ends SUCCEEDED with them (its own step would make the same
   * bytes; its callbacks are called back with this end); a FAILED record, once its failure is
   * announced, becomes a new execution that SUCCEEDED, announced with its own event ({@code
   * docs/job-lifecycle.md}, "POST, GET and the events agree").
   */
  private ProgressOutcome adopt(Job job, StepReport result) {
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
            result.record(StepStatus.SUCCEEDED),
            clock.instant());
    if (!changed) {
      notifier.announce(job.jobId());
      return ignored(result, job);
    }
    LOG.log(
        System.Logger.Level.INFO,
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
  private static boolean atItsStep(Job job, StepReport result) {
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
    LOG.log(
        System.Logger.Level.INFO,
        () -> "step " + index + " of job " + job.jobId() + " was never queued: dispatched");
    return ProgressOutcome.REDISPATCHED;
  }

  private void sendNext(Job job, int index, ObjectRef previousOutput) {
    steps.send(job, index, StepMessages.of(job, index, previousOutput));
  }

  private static ProgressOutcome ignored(StepReport result, Job job) {
    LOG.log(
        System.Logger.Level.INFO,
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
}
