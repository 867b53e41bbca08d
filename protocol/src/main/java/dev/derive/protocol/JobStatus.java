package dev.derive.protocol;

/** The life cycle of a job (one requested derivative), as the API reports it. */
public enum JobStatus {
  /** Claimed; its first step is queued but no worker has reported yet. */
  PENDING,
  /** At least one step has finished and the job is not done yet. */
  RUNNING,
  /** The derivative exists in the derivatives bucket. */
  SUCCEEDED,
  /** A step failed permanently; the job carries the error. */
  FAILED;

  /** Returns whether no further step result can change this status. */
  public boolean isTerminal() {
    return this == SUCCEEDED || this == FAILED;
  }
}
