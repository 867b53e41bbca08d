package dev.derive.protocol.message;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import java.util.Objects;

/**
 * What a worker reports to the step-results queue about a step: that it started ({@link
 * Report#STARTED}, so the job reads RUNNING with the attempt while the work goes on), or how it
 * ended ({@link Report#FINISHED}). A finished result has exactly one of {@code output} (on success)
 * and {@code error} (on failure); a started report has neither.
 *
 * @param jobId the job's fingerprint, copied from the {@link StepMessage}
 * @param stepIndex the step's index, copied from the {@link StepMessage}
 * @param capability the capability that ran the step
 * @param succeeded whether the step wrote its output
 * @param output the object written, on success
 * @param outputBytes size of the output in bytes (0 on failure)
 * @param error why it failed, on failure
 * @param startedAtMillis when the worker started the step, epoch milliseconds
 * @param finishedAtMillis when the worker finished the step, epoch milliseconds (0 when started)
 * @param reused whether the output already existed and the transformation was skipped
 * @param traceId copied from the {@link StepMessage}
 * @param attempt which delivery of the step message this was (SQS {@code ApproximateReceiveCount},
 *     1 for the first; 0 when the worker did not say)
 * @param executionId copied from the {@link StepMessage}: the execution the result belongs to
 * @param report whether the step started or finished ({@code null} reads as FINISHED)
 * @param stepCount copied from the {@link StepMessage}: the number of steps in the plan, so a
 *     success says whether it was the last step (0 from senders that predate it: the receiver then
 *     tells the last step by its output key)
 * @param summary on success of a step whose operation declares a summary ({@code
 *     OperationDescriptor#summary}): the output's JSON object, at most {@link #MAX_SUMMARY_BYTES},
 *     carried into the completion event; {@code null} otherwise, and from older workers
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
    int attempt,
    String executionId,
    Report report,
    int stepCount,
    Map<String, Object> summary) {

  /** Most bytes of a summary's JSON: it travels in the result, the job record and the event. */
  public static final int MAX_SUMMARY_BYTES = 8192;

  /** The two kinds of report a worker sends about one delivery of a step. */
  public enum Report {
    /** The worker has started the step (its output was not there yet). */
    STARTED,
    /** The step ended: succeeded with its output, or failed with its error. */
    FINISHED
  }

  public StepResult {
    Objects.requireNonNull(jobId, "jobId");
    report = report == null ? Report.FINISHED : report;
    if (report == Report.STARTED) {
      if (succeeded || output != null || error != null) {
        throw new IllegalArgumentException("a started report has neither output nor error");
      }
    } else if (succeeded == (output == null) || succeeded == (error != null)) {
      throw new IllegalArgumentException("a step result has an output exactly when it succeeded");
    }
    summary =
        summary == null || !succeeded
            ? null
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(summary));
  }

  /** A result without a step count or summary, as senders that predate them wrote. */
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
      String traceId,
      int attempt,
      String executionId,
      Report report) {
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
        attempt,
        executionId,
        report,
        0,
        null);
  }

  /** Whether this reports a start rather than an end (not a JSON property: {@code report} is). */
  @JsonIgnore
  public boolean isStarted() {
    return report == Report.STARTED;
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
        attempt,
        executionId,
        report,
        stepCount,
        summary);
  }

  /** This success carrying {@code summary} (a JSON object's members; {@code null}: none). */
  public StepResult withSummary(Map<String, Object> summary) {
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
        attempt,
        executionId,
        report,
        stepCount,
        summary);
  }

  /** That the worker started {@code step} at {@code startedAtMillis} (epoch ms). */
  public static StepResult started(StepMessage step, long startedAtMillis) {
    return new StepResult(
        step.jobId(),
        step.stepIndex(),
        step.capability(),
        false,
        null,
        0,
        null,
        startedAtMillis,
        0,
        false,
        step.traceId(),
        0,
        step.executionId(),
        Report.STARTED,
        step.stepCount(),
        null);
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
        step.traceId(),
        0,
        step.executionId(),
        Report.FINISHED,
        step.stepCount(),
        null);
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
        step.traceId(),
        0,
        step.executionId(),
        Report.FINISHED,
        step.stepCount(),
        null);
  }
}
