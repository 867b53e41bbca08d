package dev.derive.coordinator.job;

import dev.derive.protocol.JobStatus;

/**
 * Where a job record stands at an instant: the one rule for the status a job reads as ({@link
 * Job#readsAs}) and for what a claim meeting it does ({@link Job#standing}). The status reader, the
 * claim and the store's conditional writes (whose conditions restate it in DynamoDB's words) all
 * follow it; {@code docs/job-lifecycle.md}, "What a job reads as".
 */
public enum Standing {
  /** PENDING or RUNNING within its lease: reads as recorded; a claim joins it. */
  IN_FLIGHT(null),
  /**
   * PENDING or RUNNING past its lease (no message of it can be delivered any more): reads FAILED
   * (stalled); a claim takes it over, keeping its callbacks.
   */
  LOST(JobStatus.FAILED),
  /** SUCCEEDED: answered from its derivative; a claim replaces it only if that is gone. */
  SUCCEEDED(null),
  /**
   * FAILED and held: retryable within its backoff, or permanent within the hold; a claim meets its
   * error.
   */
  FAILED_HELD(null),
  /** FAILED and free (backoff over, or an old permanent failure): a claim replaces it. */
  FAILED_RECLAIMABLE(null);

  private final JobStatus readsAs;

  Standing(JobStatus readsAs) {
    this.readsAs = readsAs;
  }

  /** The status a record with {@code recorded} status reads as in this standing. */
  public JobStatus readsAs(JobStatus recorded) {
    return readsAs == null ? recorded : readsAs;
  }
}
