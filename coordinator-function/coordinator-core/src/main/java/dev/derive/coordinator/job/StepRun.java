package dev.derive.coordinator.job;

import java.time.Instant;

/**
 * What happened to one step of a job.
 *
 * @param capability capability that runs the step
 * @param status {@code PENDING}, {@code SUCCEEDED} or {@code FAILED}
 * @param startedAt when the worker started it, or {@code null} before a result arrived
 * @param finishedAt when the worker finished it, or {@code null} before a result arrived
 * @param outputBytes size of the step's output in bytes (0 unless it succeeded)
 * @param reused whether the worker found the output already present and skipped the work
 */
public record StepRun(
    String capability,
    String status,
    Instant startedAt,
    Instant finishedAt,
    long outputBytes,
    boolean reused) {
  /** Status of a step no result has arrived for. */
  public static final String PENDING = "PENDING";

  /** Status of a step that wrote its output. */
  public static final String SUCCEEDED = "SUCCEEDED";

  /** Status of a step that failed. */
  public static final String FAILED = "FAILED";

  /** A step of {@code capability} no result has arrived for. */
  public static StepRun pending(String capability) {
    return new StepRun(capability, PENDING, null, null, 0, false);
  }
}
