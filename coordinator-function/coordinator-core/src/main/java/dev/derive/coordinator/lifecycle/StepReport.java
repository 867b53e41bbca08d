package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.job.StepStatus;
import dev.derive.coordinator.plan.DerivativeFingerprint;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepResult;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * What a worker's report about one delivery of a step means: it {@link Started}, {@link Succeeded}
 * (the last step of its plan or not) or {@link Failed}. Read from the wire's {@link StepResult} by
 * {@link #of}, which is where its rules (exactly one of output and error …) are checked once.
 */
public sealed interface StepReport {
  /**
   * Which delivery of which step reported.
   *
   * @param executionId the execution the step was dispatched for ({@code null} from old senders)
   * @param attempt the delivery of the step message (1 for the first; 0 when not said)
   * @param startedAt when the worker started the step
   */
  record Origin(
      String jobId,
      String executionId,
      int stepIndex,
      String capability,
      int attempt,
      Instant startedAt) {
    public Origin {
      Objects.requireNonNull(jobId, "jobId");
    }
  }

  /** Which delivery of which step reported. */
  Origin origin();

  /** The worker started the step (its output was not there yet). */
  record Started(Origin origin) implements StepReport {}

  /**
   * The step wrote {@code output}.
   *
   * @param outputBytes its size in bytes
   * @param reused whether it was there already and the work skipped
   * @param lastStep whether the step is its plan's last: {@code output} is the job's derivative
   * @param summary the output's JSON members for a summarising step ({@link StepResult#summary}),
   *     else {@code null}
   */
  record Succeeded(
      Origin origin,
      ObjectRef output,
      long outputBytes,
      boolean reused,
      boolean lastStep,
      Instant finishedAt,
      Map<String, Object> summary)
      implements StepReport {
    public Succeeded {
      Objects.requireNonNull(output, "output");
    }
  }

  /** The step failed with {@code error}. */
  record Failed(Origin origin, StepError error, Instant finishedAt) implements StepReport {
    public Failed {
      Objects.requireNonNull(error, "error");
    }
  }

  /**
   * What {@code result} reports. Whether a success was the last step comes from its {@code
   * stepCount}; a sender that predates that field is read by its output key (only the last step
   * writes {@code derivatives/<jobId>}).
   */
  static StepReport of(StepResult result) {
    Origin origin =
        new Origin(
            result.jobId(),
            result.executionId(),
            result.stepIndex(),
            result.capability(),
            result.attempt(),
            Instant.ofEpochMilli(result.startedAtMillis()));
    if (result.isStarted()) {
      return new Started(origin);
    }
    Instant finishedAt = Instant.ofEpochMilli(result.finishedAtMillis());
    if (!result.succeeded()) {
      return new Failed(origin, result.error(), finishedAt);
    }
    boolean last =
        result.stepCount() > 0
            ? result.stepIndex() == result.stepCount() - 1
            : DerivativeFingerprint.objectKey(result.jobId()).equals(result.output().key());
    return new Succeeded(
        origin,
        result.output(),
        result.outputBytes(),
        result.reused(),
        last,
        finishedAt,
        result.summary());
  }

  default String jobId() {
    return origin().jobId();
  }

  default String executionId() {
    return origin().executionId();
  }

  default int stepIndex() {
    return origin().stepIndex();
  }

  /** The job's record of the step as this report leaves it, with {@code status}. */
  default StepRecord record(StepStatus status) {
    return switch (this) {
      case Started s ->
          new StepRecord(
              origin().capability(),
              status,
              origin().startedAt(),
              null,
              0,
              false,
              origin().attempt());
      case Succeeded s ->
          new StepRecord(
              origin().capability(),
              status,
              origin().startedAt(),
              s.finishedAt(),
              s.outputBytes(),
              s.reused(),
              origin().attempt(),
              s.summary());
      case Failed f ->
          new StepRecord(
              origin().capability(),
              status,
              origin().startedAt(),
              f.finishedAt(),
              0,
              false,
              origin().attempt());
    };
  }
}
