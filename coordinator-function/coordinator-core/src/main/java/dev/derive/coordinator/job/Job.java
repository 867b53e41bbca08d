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
   * Whether the job is a claim none of whose steps was sent: PENDING with every step PENDING (for
   * milliseconds, unless its claimer died before the send).
   */
  public boolean sentNoStep() {
    return status == JobStatus.PENDING
        && steps.stream().allMatch(step -> StepRecord.PENDING.equals(step.status()));
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
