package dev.derive.coordinator.job;

/**
 * Where one step of a job stands, as its {@link StepRecord} keeps it (stored and answered by its
 * name; {@code docs/job-lifecycle.md}, "States").
 */
public enum StepStatus {
  /** No result has arrived and the step was not sent yet. */
  PENDING,
  /** Sent to its capability's queue; no worker has reported starting it. */
  QUEUED,
  /** A worker reported it started. */
  RUNNING,
  /** It wrote its output. */
  SUCCEEDED,
  /** It failed. */
  FAILED
}
