package dev.derive.coordinator.job;

import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.plan.Plan;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.ObjectRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The record of one job: the making of one derivative, identified by its fingerprint.
 *
 * @param jobId the derivative's fingerprint
 * @param status life-cycle status
 * @param plan the steps, each with its output
 * @param currentStep index of the step in progress; equals the number of steps once SUCCEEDED
 * @param source the source's identity
 * @param output where the derivative is written (the last step's output)
 * @param steps what happened to each step, same length as the plan
 * @param error why it failed, when FAILED
 * @param createdAt when the job was claimed
 * @param updatedAt when the record last changed
 * @param leaseExpiresAt when the claim lapses if no progress renews it: first the short dispatch
 *     lease, then the current step's retry horizon (see {@code docs/job-lifecycle.md})
 * @param expiresAt when DynamoDB's TTL may delete the record
 * @param traceId id correlating the logs of every function that worked on the job
 * @param executionId the current execution: a new random id on every claim, carried by each step
 *     message and its results; results of any other execution change nothing
 * @param failureStreak how many executions in a row failed retryably, this one included once it
 *     FAILED so (a claim that takes over a retryable failure or a lost execution carries it on)
 * @param retryAfter when FAILED retryably: the earliest time a request may claim it again (the
 *     backoff of {@code failureStreak}); {@code null} otherwise
 */
public record Job(
    String jobId,
    JobStatus status,
    Plan plan,
    int currentStep,
    SourceIdentity source,
    ObjectRef output,
    List<StepRecord> steps,
    JobError error,
    Instant createdAt,
    Instant updatedAt,
    Instant leaseExpiresAt,
    Instant expiresAt,
    String traceId,
    String executionId,
    int failureStreak,
    Instant retryAfter) {
  public Job {
    steps = List.copyOf(steps);
  }

  /** Whether the job is PENDING or RUNNING and its lease ran out before {@code now}. */
  public boolean isLost(Instant now) {
    return !status.isTerminal() && leaseExpiresAt.isBefore(now);
  }

  /**
   * Where the job stands at {@code now} ({@link Standing}: the one rule for what it reads as and
   * what a claim meeting it does).
   *
   * @param permanentFailureHold how long a permanent failure is answered before a claim may replace
   *     it
   */
  public Standing standing(Instant now, Duration permanentFailureHold) {
    return switch (status) {
      case SUCCEEDED -> Standing.SUCCEEDED;
      case FAILED ->
          (error != null && error.retryable()
                  ? retryAfter == null || retryAfter.isBefore(now)
                  : updatedAt.isBefore(now.minus(permanentFailureHold)))
              ? Standing.FAILED_RECLAIMABLE
              : Standing.FAILED_HELD;
      case PENDING, RUNNING -> isLost(now) ? Standing.LOST : Standing.IN_FLIGHT;
    };
  }

  /**
   * The status the job reads as at {@code now} ({@link Standing#readsAs}): as recorded, except that
   * a lost one reads FAILED.
   */
  public JobStatus readsAs(Instant now) {
    return (isLost(now) ? Standing.LOST : Standing.IN_FLIGHT).readsAs(status);
  }

  /**
   * Whether the job is a claim none of whose steps was sent: PENDING with its current step PENDING
   * (for milliseconds, unless its claimer died before the send). Earlier steps may be SUCCEEDED: a
   * claim starts at the first step whose output is not already there.
   */
  public boolean sentNoStep() {
    return status == JobStatus.PENDING
        && currentStep < steps.size()
        && StepRecord.PENDING.equals(steps.get(currentStep).status());
  }

  /** This job as a new execution: the same record under a new {@code executionId}. */
  public Job withExecution(String executionId) {
    return new Job(
        jobId,
        status,
        plan,
        currentStep,
        source,
        output,
        steps,
        error,
        createdAt,
        updatedAt,
        leaseExpiresAt,
        expiresAt,
        traceId,
        executionId,
        failureStreak,
        retryAfter);
  }

  /** This job carrying {@code failureStreak} retryable failures of the executions before it. */
  public Job withFailureStreak(int failureStreak) {
    return new Job(
        jobId,
        status,
        plan,
        currentStep,
        source,
        output,
        steps,
        error,
        createdAt,
        updatedAt,
        leaseExpiresAt,
        expiresAt,
        traceId,
        executionId,
        failureStreak,
        retryAfter);
  }

  /**
   * A freshly claimed job: PENDING at its first step.
   *
   * @param lease how long the claim lasts without progress
   * @param retention how long the record is kept (its DynamoDB TTL)
   */
  public static Job claimed(
      Plan plan,
      SourceIdentity source,
      Instant now,
      Duration lease,
      Duration retention,
      String traceId) {
    return claimed(plan, source, 0, now, lease, retention, traceId);
  }

  /**
   * A freshly claimed job that starts at step {@code firstStep}: the steps before it are recorded
   * as SUCCEEDED and reused, their outputs being already in the derivatives bucket. Its execution
   * id is a new random UUID.
   *
   * @param lease the dispatch lease: how long the claim lasts if its first step is never sent
   * @throws IllegalArgumentException if {@code firstStep} is not a step of the plan
   */
  public static Job claimed(
      Plan plan,
      SourceIdentity source,
      int firstStep,
      Instant now,
      Duration lease,
      Duration retention,
      String traceId) {
    if (firstStep < 0 || firstStep >= plan.size()) {
      throw new IllegalArgumentException("no step " + firstStep + " in a plan of " + plan.size());
    }
    List<StepRecord> runs = new ArrayList<>();
    for (int i = 0; i < plan.size(); i++) {
      String capability = plan.step(i).capability();
      runs.add(i < firstStep ? StepRecord.reused(capability, now) : StepRecord.pending(capability));
    }
    return new Job(
        plan.fingerprint(),
        JobStatus.PENDING,
        plan,
        firstStep,
        source,
        plan.step(plan.size() - 1).output(),
        runs,
        null,
        now,
        now,
        now.plus(lease),
        now.plus(retention),
        traceId,
        java.util.UUID.randomUUID().toString(),
        0,
        null);
  }
}
