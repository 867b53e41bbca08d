package dev.derive.coordinator.lifecycle;

/** What applying one step result (or one dead-lettered message) did to its job. */
public enum ProgressOutcome {
  /** A worker reported it started the step; the job reads RUNNING with the attempt. */
  STARTED,
  /** An earlier step succeeded; the job moved on and the next step was dispatched. */
  ADVANCED,
  /**
   * A repeated success of the step before the current one found the current step never queued (the
   * dispatch after the recorded advance had failed); it was dispatched now.
   */
  REDISPATCHED,
  /** The last step succeeded; the derivative is done. */
  SUCCEEDED,
  /** The step failed (or was dead-lettered); the job is FAILED with the error. */
  FAILED,
  /**
   * A duplicate, late or reordered result (wrong step, or the job already ended); nothing changed.
   */
  IGNORED,
  /**
   * A result of an execution that is no longer the job's (the job was reclaimed); nothing changed.
   */
  SUPERSEDED,
  /**
   * A claim check found the claim lost without a step sent: the job was claimed again and its first
   * step sent, as a new request would.
   */
  RECLAIMED,
  /** No job has the result's id (its record expired, or the message is foreign); dropped. */
  UNKNOWN_JOB
}
