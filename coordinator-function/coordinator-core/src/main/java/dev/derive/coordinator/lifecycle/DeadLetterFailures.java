package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Fails a job whose step message or step result exhausted its deliveries and reached a dead-letter
 * queue, with a retryable {@code dead-lettered} error naming the step, if the job is still at that
 * step of that execution. A step message whose output is in the bucket (its worker wrote it and
 * died before reporting, on its last delivery) is not a failure: the output is applied as the
 * step's success, which ends the job SUCCEEDED (or advances it) with its one event.
 */
final class DeadLetterFailures {
  private static final System.Logger LOG = System.getLogger(DeadLetterFailures.class.getName());

  private final JobStore store;
  private final Clock clock;
  private final CompletionNotifier notifier;
  private final DerivativeCache outputs;

  /**
   * @param outputs where a dead-lettered step's output is looked for ({@code null}: never)
   */
  DeadLetterFailures(
      JobStore store, Clock clock, CompletionNotifier notifier, DerivativeCache outputs) {
    this.store = store;
    this.clock = clock;
    this.notifier = notifier;
    this.outputs = outputs;
  }

  /**
   * See {@link JobProgress#deadLettered}.
   *
   * @param results applies the step's output as its success when it is in the bucket
   * @throws dev.derive.storage.ObjectStoreException if the output could not be looked for (retry
   *     the dead letter)
   */
  ProgressOutcome stepMessage(StepMessage step, int receives, StepResultTransitions results) {
    OptionalLong made =
        outputs == null ? OptionalLong.empty() : outputs.stepOutputBytes(step.output());
    if (made.isPresent()) {
      long now = clock.millis();
      LOG.log(
          System.Logger.Level.INFO,
          () ->
              "dead-lettered step "
                  + step.stepIndex()
                  + " of job "
                  + step.jobId()
                  + " wrote its output before its worker died: applied as its success");
      return results.apply(
          StepReport.of(
              StepResult.success(step, made.getAsLong(), now, now, true)
                  .withAttempt(Math.max(receives, 1))));
    }
    String detail =
        "step "
            + (step.stepIndex() + 1)
            + " of "
            + step.stepCount()
            + " ("
            + step.capability()
            + ") exhausted "
            + (receives > 0 ? receives + " deliveries" : "its deliveries")
            + " without a result: its worker crashed, ran out of memory or was stopped each time;"
            + " request the derivative again to retry";
    return failAt(
        step.jobId(),
        step.executionId(),
        step.stepIndex(),
        new JobError(StepErrorTypes.DEAD_LETTERED, detail, step.stepIndex(), true));
  }

  /**
   * See {@link JobProgress#resultDeadLettered}: a result fails its job only where the job still
   * waits on it. A started report never does (the step's own result or dead letter ends it); a
   * finished result is applied once more, and only if that throws again is the job failed, at the
   * result's step if the job is still there, or at the next step if the result's success was
   * recorded but that step never queued. A result of a step the job has left behind changes nothing
   * (issue 26 item 8: a progress batch that timed out after applying some of its messages).
   *
   * @param results applies the result once more
   */
  ProgressOutcome stepResult(StepReport result, StepResultTransitions results) {
    if (result instanceof StepReport.Started) {
      return announceIfEnded(result);
    }
    RuntimeException cause;
    try {
      return results.apply(result);
    } catch (RuntimeException e) {
      cause = e;
    }
    Optional<Job> found = store.find(result.jobId());
    if (found.isEmpty()) {
      return ProgressOutcome.UNKNOWN_JOB;
    }
    Job job = found.get();
    int index = result.stepIndex();
    boolean nextNeverQueued =
        result instanceof StepReport.Succeeded
            && job.currentStep() == index + 1
            && index + 1 < job.steps().size()
            && StepRecord.PENDING.equals(job.steps().get(index + 1).status());
    int failing = nextNeverQueued ? index + 1 : index;
    String detail =
        "the result of step "
            + (index + 1)
            + " ("
            + result.origin().capability()
            + ") could not be applied in any of its deliveries;"
            + " request the derivative again to retry";
    LOG.log(
        System.Logger.Level.WARNING,
        () -> "dead-lettered result of job " + job.jobId() + ": " + cause.getMessage());
    return failAt(
        job.jobId(),
        result.executionId(),
        failing,
        new JobError(StepErrorTypes.DEAD_LETTERED, detail, failing, true));
  }

  private ProgressOutcome announceIfEnded(StepReport result) {
    Optional<Job> found = store.find(result.jobId());
    if (found.isPresent()
        && found.get().status().isTerminal()
        && Objects.equals(found.get().executionId(), result.executionId())) {
      notifier.announce(result.jobId()); // a dead letter may be the last message about an end
    }
    return ProgressOutcome.IGNORED;
  }

  private ProgressOutcome failAt(String jobId, String executionId, int index, JobError error) {
    Optional<Job> found = store.find(jobId);
    if (found.isEmpty()) {
      return ProgressOutcome.UNKNOWN_JOB;
    }
    Job job = found.get();
    if (!Objects.equals(executionId, job.executionId())) {
      return ProgressOutcome.SUPERSEDED;
    }
    if (job.status().isTerminal()) {
      notifier.announce(jobId); // a dead letter may be the last message about an unpublished end
      return ProgressOutcome.IGNORED;
    }
    if (job.currentStep() != index || index >= job.steps().size()) {
      return ProgressOutcome.IGNORED;
    }
    StepRecord before = job.steps().get(index);
    Instant now = clock.instant();
    StepRecord failed =
        new StepRecord(
            before.capability(),
            StepRecord.FAILED,
            before.startedAt(),
            now,
            0,
            false,
            before.attempts());
    boolean changed =
        store.recordFailure(
            jobId,
            executionId,
            index,
            failed,
            error,
            now,
            RetryBackoff.streakAfter(job, error.retryable()),
            RetryBackoff.retryAfter(job, error.retryable(), now));
    if (!changed) {
      return ProgressOutcome.IGNORED;
    }
    notifier.announce(jobId);
    return ProgressOutcome.FAILED;
  }
}
