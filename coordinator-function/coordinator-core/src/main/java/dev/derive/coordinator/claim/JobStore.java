package dev.derive.coordinator.claim;

import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRun;
import java.time.Instant;
import java.util.Optional;

/**
 * The seam to the job records, in the manner of AWS Powertools' idempotency {@code
 * PersistenceStore}: every write is conditional, so concurrent coordinators and duplicate SQS
 * deliveries never make two executions of one job or apply one step result twice. {@link
 * DynamoDbJobStore} is the DynamoDB implementation.
 */
public interface JobStore {

  /**
   * Writes {@code candidate} unless another live job holds its id. The claim succeeds when no
   * record exists, when the existing one is PENDING or RUNNING with its lease expired before {@code
   * now}, when it FAILED with a retryable error, or when it SUCCEEDED (the caller has found the
   * derivative missing from the cache, so it must be made again).
   *
   * @return won, or lost with the existing job to join
   * @throws JobStoreException on a store failure
   */
  ClaimResult claim(Job candidate, Instant now);

  /**
   * Reads a job with a strongly consistent read.
   *
   * @throws JobStoreException on a store failure
   */
  Optional<Job> find(String jobId);

  /**
   * Records that step {@code stepIndex} succeeded, if the job is still PENDING or RUNNING at that
   * step: the job advances to the next step (RUNNING, lease renewed until {@code leaseExpiresAt}),
   * or becomes SUCCEEDED when it was the last.
   *
   * @return whether the record changed; false for a duplicate or stale result
   * @throws JobStoreException on a store failure
   */
  boolean recordSuccess(
      String jobId,
      int stepIndex,
      StepRun run,
      boolean lastStep,
      Instant now,
      Instant leaseExpiresAt);

  /**
   * Records that step {@code stepIndex} failed, if the job is still PENDING or RUNNING at that
   * step: the job becomes FAILED with {@code error}.
   *
   * @return whether the record changed; false for a duplicate or stale result
   * @throws JobStoreException on a store failure
   */
  boolean recordFailure(String jobId, int stepIndex, StepRun run, JobError error, Instant now);
}
