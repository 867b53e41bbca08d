package dev.derive.protocol.message;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * What a worker reports to the step-results queue after a step. Exactly one of {@code output} (on
 * success) and {@code error} (on failure) is set.
 *
 * @param jobId the job's fingerprint, copied from the {@link StepMessage}
 * @param stepIndex the step's index, copied from the {@link StepMessage}
 * @param capability the capability that ran the step
 * @param succeeded whether the step wrote its output
 * @param output the object written, on success
 * @param outputBytes size of the output in bytes (0 on failure)
 * @param error why it failed, on failure
 * @param startedAtMillis when the worker started the step, epoch milliseconds
 * @param finishedAtMillis when the worker finished the step, epoch milliseconds
 * @param reused whether the output already existed and the transformation was skipped
 * @param traceId copied from the {@link StepMessage}
 * @param attempt which delivery of the step message this was (SQS {@code ApproximateReceiveCount},
 *     1 for the first; 0 when the worker did not say)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StepResult(
    String jobId,
    int stepIndex,
    String capability,
    boolean succeeded,
    ObjectRef output,
    long outputBytes,
    StepError error,
    long startedAtMillis,
    long finishedAtMillis,
    boolean reused,
    String traceId,
    int attempt) {
  public StepResult {
    Objects.requireNonNull(jobId, "jobId");
    if (succeeded == (output == null) || succeeded == (error != null)) {
      throw new IllegalArgumentException("a step result has an output exactly when it succeeded");
    }
  }

  /** A result without an attempt number. */
  public StepResult(
      String jobId,
      int stepIndex,
      String capability,
      boolean succeeded,
      ObjectRef output,
      long outputBytes,
      StepError error,
      long startedAtMillis,
      long finishedAtMillis,
      boolean reused,
      String traceId) {
    this(
        jobId,
        stepIndex,
        capability,
        succeeded,
        output,
        outputBytes,
        error,
        startedAtMillis,
        finishedAtMillis,
        reused,
        traceId,
        0);
  }

  /** This result, reported by the {@code attempt}-th delivery of its step message. */
  public StepResult withAttempt(int attempt) {
    return new StepResult(
        jobId,
        stepIndex,
        capability,
        succeeded,
        output,
        outputBytes,
        error,
        startedAtMillis,
        finishedAtMillis,
        reused,
        traceId,
        attempt);
  }

  /** A successful result for {@code step} that wrote {@code outputBytes} bytes. */
  public static StepResult success(
      StepMessage step,
      long outputBytes,
      long startedAtMillis,
      long finishedAtMillis,
      boolean reused) {
    return new StepResult(
        step.jobId(),
        step.stepIndex(),
        step.capability(),
        true,
        step.output(),
        outputBytes,
        null,
        startedAtMillis,
        finishedAtMillis,
        reused,
        step.traceId());
  }

  /** A failed result for {@code step}. */
  public static StepResult failure(
      StepMessage step, StepError error, long startedAtMillis, long finishedAtMillis) {
    return new StepResult(
        step.jobId(),
        step.stepIndex(),
        step.capability(),
        false,
        null,
        0,
        error,
        startedAtMillis,
        finishedAtMillis,
        false,
        step.traceId());
  }
}
