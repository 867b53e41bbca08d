package dev.derive.coordinator.progress;

/** What applying one step result did to its job. */
public enum ProgressOutcome {
  /** An earlier step succeeded; the job moved on and the next step was dispatched. */
  ADVANCED,
  /** The last step succeeded; the derivative is done. */
  SUCCEEDED,
  /** The step failed; the job is FAILED with the step's error. */
  FAILED,
  /** A duplicate or stale result (wrong step, or the job already ended); nothing changed. */
  IGNORED,
  /** No job has the result's id (its record expired, or the message is foreign); dropped. */
  UNKNOWN_JOB
}
