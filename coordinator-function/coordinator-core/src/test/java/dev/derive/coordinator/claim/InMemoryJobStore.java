package dev.derive.coordinator.claim;

import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.Standing;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.protocol.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The {@link JobStore} in memory, with the same conditions as {@code
 * dev.derive.coordinator.aws.DynamoDbJobStore} (the {@code JobStoreContractTest}s run both through
 * one specification), for fast tests of the lifecycle. DynamoDB keeps lease and TTL instants in
 * whole epoch seconds, so this store truncates them too.
 */
public class InMemoryJobStore implements JobStore {
  private final Map<String, Job> jobs = new ConcurrentHashMap<>();

  @Override
  public synchronized ClaimResult claim(Job candidate, Instant now, Instant cutoff) {
    Job existing = jobs.get(candidate.jobId());
    // the one rule, as DynamoDbJobStore's condition states it: FAILED_RECLAIMABLE at now
    boolean reclaimable =
        existing != null
            && existing.standing(now, Duration.between(cutoff, now)) == Standing.FAILED_RECLAIMABLE;
    boolean retryable = reclaimable && existing.error() != null && existing.error().retryable();
    boolean claimable = existing == null || reclaimable;
    return put(
        retryable ? candidate.withFailureStreak(existing.failureStreak()) : candidate,
        existing,
        claimable);
  }

  @Override
  public synchronized ClaimResult takeOver(Job candidate, String lostExecutionId, Instant now) {
    Job existing = jobs.get(candidate.jobId());
    boolean lost =
        existing != null
            && existing.executionId().equals(lostExecutionId)
            && existing.standing(now, Duration.ZERO) == Standing.LOST;
    return put(
        lost ? candidate.withFailureStreak(existing.failureStreak()) : candidate, existing, lost);
  }

  @Override
  public synchronized ClaimResult replaceSucceeded(Job candidate, String seenExecutionId) {
    Job existing = jobs.get(candidate.jobId());
    boolean replaceable =
        existing != null
            && existing.status() == JobStatus.SUCCEEDED
            && existing.executionId().equals(seenExecutionId);
    return put(candidate, existing, replaceable);
  }

  private ClaimResult put(Job candidate, Job existing, boolean allowed) {
    if (!allowed) {
      if (existing == null) {
        throw new JobStoreException("claim of " + candidate.jobId() + " lost to nothing", null);
      }
      // a repeated claim finds its own record (an SDK retry of a write that applied): won
      return new ClaimResult(existing.executionId().equals(candidate.executionId()), existing);
    }
    jobs.put(candidate.jobId(), stored(candidate));
    return new ClaimResult(true, candidate);
  }

  @Override
  public Optional<Job> find(String jobId) {
    return Optional.ofNullable(jobs.get(jobId));
  }

  @Override
  public synchronized boolean markDispatched(
      String jobId, String executionId, int stepIndex, Instant leaseExpiresAt) {
    Job job = jobs.get(jobId);
    if (!atStep(job, executionId, stepIndex)
        || !StepRecord.PENDING.equals(job.steps().get(stepIndex).status())) {
      return false;
    }
    StepRecord run = job.steps().get(stepIndex);
    return update(
        jobId,
        j ->
            with(
                j,
                j.status(),
                j.currentStep(),
                stepIndex,
                new StepRecord(
                    run.capability(),
                    StepRecord.QUEUED,
                    run.startedAt(),
                    run.finishedAt(),
                    run.outputBytes(),
                    run.reused(),
                    run.attempts()),
                null,
                j.updatedAt(),
                leaseExpiresAt));
  }

  @Override
  public synchronized boolean recordStarted(
      String jobId,
      String executionId,
      int stepIndex,
      StepRecord run,
      Instant now,
      Instant leaseExpiresAt) {
    if (!atStep(jobs.get(jobId), executionId, stepIndex)) {
      return false;
    }
    return update(
        jobId,
        j -> with(j, JobStatus.RUNNING, stepIndex, stepIndex, run, null, now, leaseExpiresAt));
  }

  @Override
  public synchronized StepWrite recordSuccess(StepSuccess success) {
    Job job = jobs.get(success.jobId());
    int stepIndex = success.stepIndex();
    if (!atStep(job, success.executionId(), stepIndex)
        || (job.steps().size() == stepIndex + 1) != success.lastStep()) {
      return StepWrite.notApplied(Optional.ofNullable(job));
    }
    JobStatus next = success.lastStep() ? JobStatus.SUCCEEDED : JobStatus.RUNNING;
    update(
        success.jobId(),
        j ->
            with(
                j,
                next,
                stepIndex + 1,
                stepIndex,
                success.run(),
                null,
                success.at(),
                success.leaseExpiresAt()));
    return StepWrite.applied(jobs.get(success.jobId()));
  }

  @Override
  public synchronized boolean recordFailure(
      String jobId,
      String executionId,
      int stepIndex,
      StepRecord run,
      JobError error,
      Instant now,
      int failureStreak,
      Instant retryAfter) {
    if (!atStep(jobs.get(jobId), executionId, stepIndex)) {
      return false;
    }
    return update(
        jobId,
        j -> {
          Job failed =
              with(
                  j,
                  JobStatus.FAILED,
                  j.currentStep(),
                  stepIndex,
                  run,
                  error,
                  now,
                  j.leaseExpiresAt());
          return new Job(
              failed.jobId(),
              failed.status(),
              failed.plan(),
              failed.currentStep(),
              failed.source(),
              failed.output(),
              failed.steps(),
              failed.error(),
              failed.createdAt(),
              failed.updatedAt(),
              failed.leaseExpiresAt(),
              failed.expiresAt(),
              failed.traceId(),
              failed.executionId(),
              failureStreak,
              retryAfter);
        });
  }

  @Override
  public synchronized boolean recordAdopted(
      String jobId,
      String executionId,
      JobStatus seen,
      String newExecutionId,
      int lastStep,
      StepRecord run,
      Instant now) {
    Job job = jobs.get(jobId);
    if (job == null
        || !job.executionId().equals(executionId)
        || job.status() != seen
        || job.steps().size() != lastStep + 1) {
      return false;
    }
    Job done = with(job, JobStatus.SUCCEEDED, lastStep + 1, lastStep, run, null, now, now);
    jobs.put(
        jobId,
        stored(
            new Job(
                done.jobId(),
                done.status(),
                done.plan(),
                done.currentStep(),
                done.source(),
                done.output(),
                done.steps(),
                null,
                done.createdAt(),
                done.updatedAt(),
                done.leaseExpiresAt(),
                done.expiresAt(),
                done.traceId(),
                newExecutionId,
                done.failureStreak(),
                null)));
    return true;
  }

  private static boolean atStep(Job job, String executionId, int stepIndex) {
    return job != null
        && Objects.equals(job.executionId(), executionId == null ? "" : executionId)
        && job.currentStep() == stepIndex
        && !job.status().isTerminal();
  }

  private boolean update(String jobId, UnaryOperator<Job> change) {
    jobs.put(jobId, stored(change.apply(jobs.get(jobId))));
    return true;
  }

  private static Job with(
      Job j,
      JobStatus status,
      int currentStep,
      int runIndex,
      StepRecord run,
      JobError error,
      Instant updatedAt,
      Instant lease) {
    List<StepRecord> runs = new ArrayList<>(j.steps());
    runs.set(runIndex, run);
    return new Job(
        j.jobId(),
        status,
        j.plan(),
        currentStep,
        j.source(),
        j.output(),
        runs,
        error == null ? j.error() : error,
        j.createdAt(),
        updatedAt,
        lease,
        j.expiresAt(),
        j.traceId(),
        j.executionId(),
        j.failureStreak(),
        j.retryAfter());
  }

  /** The job as DynamoDB keeps it: instants in whole seconds or milliseconds. */
  private static Job stored(Job j) {
    return new Job(
        j.jobId(),
        j.status(),
        j.plan(),
        j.currentStep(),
        j.source(),
        j.output(),
        j.steps().stream().map(InMemoryJobStore::storedRun).toList(),
        j.error() == null
            ? null
            : new JobError(
                j.error().type(),
                j.error().detail() == null ? "" : j.error().detail(),
                j.error().step(),
                j.error().retryable()),
        Instant.ofEpochMilli(j.createdAt().toEpochMilli()),
        Instant.ofEpochMilli(j.updatedAt().toEpochMilli()),
        Instant.ofEpochSecond(j.leaseExpiresAt().getEpochSecond()),
        Instant.ofEpochSecond(j.expiresAt().getEpochSecond()),
        j.traceId(),
        j.executionId(),
        j.failureStreak(),
        j.retryAfter() == null ? null : Instant.ofEpochSecond(j.retryAfter().getEpochSecond()));
  }

  private static StepRecord storedRun(StepRecord r) {
    return new StepRecord(
        r.capability(),
        r.status(),
        r.startedAt() == null ? null : Instant.ofEpochMilli(r.startedAt().toEpochMilli()),
        r.finishedAt() == null ? null : Instant.ofEpochMilli(r.finishedAt().toEpochMilli()),
        r.outputBytes(),
        r.reused(),
        r.attempts(),
        r.summary());
  }
}
