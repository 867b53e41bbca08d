package dev.derive.coordinator.claim;

import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import java.time.Instant;
import java.util.Optional;

/**
 * The seam to the job records, in the manner of AWS Powertools' idempotency {@code
 * PersistenceStore}: every write is one atomic conditional write, so concurrent coordinators and
 * duplicate, late or reordered SQS deliveries never make two executions of one job or apply one
 * step result twice. The conditions are specified here and in {@code docs/job-lifecycle.md}; when
 * to make which write is {@link dev.derive.coordinator.lifecycle.JobClaims} and {@link
 * dev.derive.coordinator.lifecycle.JobProgress}'s business. {@link DynamoDbJobStore} implements
 * them on DynamoDB; tests use an in-memory implementation.
 *
 * <p>Every step write ({@code markDispatched}, {@code recordStarted}, {@code recordSuccess}, {@code
 * recordFailure}) applies only while the job is <em>at the step</em>: its {@code executionId} is
 * the given one, its {@code currentStep} is the given index and its status is PENDING or RUNNING.
 * Otherwise it changes nothing and answers false.
 */
public interface JobStore {

  /**
   * Writes {@code candidate} (a fresh PENDING job) where no record exists, or over an ended record
   * that may be claimed again: one that FAILED with a retryable error whose {@link Job#retryAfter}
   * is before {@code now}, or FAILED permanently before {@code permanentFailureCutoff} (a permanent
   * failure is answered only for a bounded time); in either case only once its completion notice is
   * not pending. The new record starts without callbacks (those of the ended record went with its
   * end) and, over a retryable failure, carries its {@link Job#failureStreak} on, in the same
   * write. A SUCCEEDED record is never taken over here ({@link #replaceSucceeded}), nor a lost
   * execution ({@link #takeOver}). A claim that finds its own record (a retried write that had
   * applied) is won.
   *
   * @return won (with the job as written), or lost with the existing job
   * @throws JobStoreException on a store failure
   */
  ClaimResult claim(Job candidate, Instant now, Instant permanentFailureCutoff);

  /**
   * Writes {@code candidate} over the lost execution {@code lostExecutionId} (PENDING or RUNNING,
   * its lease run out before {@code now}) in one write that keeps what the lost execution hands on:
   * its callbacks, called back when the new execution ends, and its {@link Job#failureStreak}.
   * There is no second write, so a claimer that dies right after this one loses nothing. A
   * take-over that finds its own record (a retried write that had applied) is won.
   *
   * @return won (with the job as written), or lost with the job as it is now
   * @throws JobStoreException on a store failure
   */
  ClaimResult takeOver(Job candidate, String lostExecutionId, Instant now);

  /**
   * Writes {@code candidate} over a SUCCEEDED record of execution {@code seenExecutionId}, for a
   * derivative whose output has gone from the bucket (expired): the record seen is the one
   * replaced, so two requests that both found it gone make one new execution.
   *
   * @return won, or lost with the job as it is now
   * @throws JobStoreException on a store failure
   */
  ClaimResult replaceSucceeded(Job candidate, String seenExecutionId);

  /**
   * Reads a job with a strongly consistent read.
   *
   * @throws JobStoreException on a store failure
   */
  Optional<Job> find(String jobId);

  /**
   * Records that step {@code stepIndex} was sent to its queue, if no worker has reported it started
   * yet (its run is still PENDING): the run becomes QUEUED and the lease {@code leaseExpiresAt},
   * the step's whole retry horizon.
   *
   * @return whether the record changed; false if the job is no longer at that step or a worker
   *     already started it
   * @throws JobStoreException on a store failure
   */
  boolean markDispatched(String jobId, String executionId, int stepIndex, Instant leaseExpiresAt);

  /**
   * Records that a worker started step {@code stepIndex}: the job becomes RUNNING, the step run
   * {@code run} (status RUNNING, its start and attempt) and the lease {@code leaseExpiresAt} (a
   * started step was dispatched, whether or not {@link #markDispatched} got through).
   *
   * @return whether the record changed
   * @throws JobStoreException on a store failure
   */
  boolean recordStarted(
      String jobId,
      String executionId,
      int stepIndex,
      StepRecord run,
      Instant now,
      Instant leaseExpiresAt);

  /**
   * Records that a step succeeded ({@link StepSuccess}), applied only while the job is at the step
   * and the step is, as {@link StepSuccess#lastStep} says, its plan's last or not: the step's run
   * becomes {@code run}, and the job either advances to the next step (RUNNING, leased until {@code
   * leaseExpiresAt}) or, for the last step, becomes SUCCEEDED with its completion notice pending
   * ({@link dev.derive.coordinator.completion.CompletionOutbox}), in the same write. The caller
   * need not read the job first: the answer carries the record either way.
   *
   * @return recorded with the job as written, or not (a duplicate, stale or superseded result, or
   *     one whose {@code lastStep} is not the record's plan's) with the job as it is now (empty: no
   *     such job)
   * @throws JobStoreException on a store failure
   */
  StepWrite recordSuccess(StepSuccess success);

  /**
   * Records that step {@code stepIndex} failed: the job becomes FAILED with {@code error} and, in
   * the same write, its completion notice pending.
   *
   * @param failureStreak the job's {@link Job#failureStreak} after this failure
   * @param retryAfter for a retryable error, the earliest a claim may take the job over ({@link
   *     #claim}); {@code null} for a permanent one
   * @return whether the record changed; false for a duplicate, stale or superseded result
   * @throws JobStoreException on a store failure
   */
  boolean recordFailure(
      String jobId,
      String executionId,
      int stepIndex,
      StepRecord run,
      JobError error,
      Instant now,
      int failureStreak,
      Instant retryAfter);

  /**
   * Ends job {@code jobId} SUCCEEDED with the derivative the last step of some execution wrote
   * (content-addressed, so the right bytes whichever execution made them), when the record is still
   * execution {@code executionId} with status {@code seen}: PENDING or RUNNING (an execution that
   * replaced the one that made it, and would make the same bytes again), or FAILED with its notice
   * no longer pending (the failure was announced; the success is a new end). The record becomes
   * SUCCEEDED at the end of its plan under execution {@code newExecutionId} (the same id for a
   * running execution; a new one for a FAILED record, whose callbacks were called back with the
   * failure and are dropped), its last step {@code run}, its completion notice pending.
   *
   * @return whether the record changed
   * @throws JobStoreException on a store failure
   */
  boolean recordAdopted(
      String jobId,
      String executionId,
      dev.derive.protocol.JobStatus seen,
      String newExecutionId,
      int lastStep,
      StepRecord run,
      Instant now);
}
