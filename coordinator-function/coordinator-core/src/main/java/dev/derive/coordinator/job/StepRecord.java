package dev.derive.coordinator.job;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job's record of one of its steps: what happened to it so far, as the jobs table keeps it (not
 * to be confused with the worker's {@code StepRunner}, which executes a step).
 *
 * @param capability capability that runs the step
 * @param status where the step stands
 * @param startedAt when the worker started it, or {@code null} before a result arrived
 * @param finishedAt when the worker finished it, or {@code null} before a result arrived
 * @param outputBytes size of the step's output in bytes (0 unless it succeeded)
 * @param reused whether the output was already present and the work skipped (by the worker, or by
 *     the coordinator reusing a cached prefix of the plan)
 * @param attempts deliveries of the step to its worker, as the worker reported them (SQS receive
 *     count; 0 before a result arrived or for a step skipped by prefix reuse)
 * @param summary what the worker reported of a summarising step's output ({@code
 *     StepResult#summary}), which the completion event carries; {@code null} for most steps
 */
public record StepRecord(
    String capability,
    StepStatus status,
    Instant startedAt,
    Instant finishedAt,
    long outputBytes,
    boolean reused,
    int attempts,
    Map<String, Object> summary) {
  public StepRecord {
    summary = summary == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(summary));
  }

  /** A record without a summary. */
  public StepRecord(
      String capability,
      StepStatus status,
      Instant startedAt,
      Instant finishedAt,
      long outputBytes,
      boolean reused,
      int attempts) {
    this(capability, status, startedAt, finishedAt, outputBytes, reused, attempts, null);
  }

  /** Status of a step no result has arrived for. */
  public static final StepStatus PENDING = StepStatus.PENDING;

  /** Status of a step sent to its capability's queue that no worker has reported starting. */
  public static final StepStatus QUEUED = StepStatus.QUEUED;

  /** Status of a step a worker reported it started. */
  public static final StepStatus RUNNING = StepStatus.RUNNING;

  /** Status of a step that wrote its output. */
  public static final StepStatus SUCCEEDED = StepStatus.SUCCEEDED;

  /** Status of a step that failed. */
  public static final StepStatus FAILED = StepStatus.FAILED;

  /** A step of {@code capability} no result has arrived for. */
  public static StepRecord pending(String capability) {
    return new StepRecord(capability, PENDING, null, null, 0, false, 0);
  }

  /**
   * A step the coordinator skipped because its output already existed (prefix reuse).
   *
   * @param at when the reuse was decided
   */
  public static StepRecord reused(String capability, Instant at) {
    return new StepRecord(capability, SUCCEEDED, at, at, 0, true, 0);
  }
}
