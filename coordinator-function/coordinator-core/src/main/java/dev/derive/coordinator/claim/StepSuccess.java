package dev.derive.coordinator.claim;

import dev.derive.coordinator.job.StepRecord;
import java.time.Instant;
import java.util.Objects;

/**
 * What {@link JobStore#recordSuccess} writes: step {@code stepIndex} of execution {@code
 * executionId} succeeded, and whether it was its plan's last (as the worker's report says, {@code
 * StepReport.Succeeded#lastStep}, or, written again after a read, as the record's plan says).
 *
 * @param executionId the execution the step ran for ({@code null} from old senders: applies to no
 *     record)
 * @param run the job's record of the step as the success leaves it
 * @param lastStep whether the step is its plan's last: the job ends SUCCEEDED, else it advances
 * @param at when the success is recorded (the record's {@code updatedAt})
 * @param leaseExpiresAt after an advance, the job's lease until its next step is known to be
 *     queued; {@code at} for the last step (an ended job holds no lease)
 */
public record StepSuccess(
    String jobId,
    String executionId,
    int stepIndex,
    StepRecord run,
    boolean lastStep,
    Instant at,
    Instant leaseExpiresAt) {
  public StepSuccess {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(leaseExpiresAt, "leaseExpiresAt");
  }

  /** The success of the plan's last step: the job ends SUCCEEDED at {@code at}. */
  public static StepSuccess last(
      String jobId, String executionId, int stepIndex, StepRecord run, Instant at) {
    return new StepSuccess(jobId, executionId, stepIndex, run, true, at, at);
  }

  /**
   * The success of a step before the last: the job goes on to the next, leased until {@code lease}.
   */
  public static StepSuccess advance(
      String jobId, String executionId, int stepIndex, StepRecord run, Instant at, Instant lease) {
    return new StepSuccess(jobId, executionId, stepIndex, run, false, at, lease);
  }
}
