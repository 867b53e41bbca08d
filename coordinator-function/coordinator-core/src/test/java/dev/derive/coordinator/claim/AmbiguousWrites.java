package dev.derive.coordinator.claim;

import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A {@link JobStore} whose writes may apply and then lose their answer, as a DynamoDB write does
 * when the connection breaks after the table applied it: {@link Outcome#RETRIED} is the SDK's retry
 * of it (the caller sees the second attempt's answer, which finds the first one's record), {@link
 * Outcome#LOST} a caller that gives up ({@link JobStoreException} after the write applied). Which
 * write strikes is the {@code strike} function's choice, by write name ({@code claim}, {@code
 * takeOver}, {@code replaceSucceeded}, {@code markDispatched}, {@code recordStarted}, {@code
 * recordSuccess}, {@code recordFailure}, {@code recordAdopted}).
 */
public class AmbiguousWrites implements JobStore {
  /** What happens to one write. */
  public enum Outcome {
    /** Answered as it is. */
    CLEAN,
    /** Applied, answer lost, sent again by the SDK: the caller gets the repeat's answer. */
    RETRIED,
    /** Applied, answer lost, no retry left: the caller gets a {@link JobStoreException}. */
    LOST
  }

  private final JobStore store;
  private final Function<String, Outcome> strike;

  public AmbiguousWrites(JobStore store, Function<String, Outcome> strike) {
    this.store = store;
    this.strike = strike;
  }

  private <T> T write(String name, Supplier<T> write) {
    Outcome outcome = strike.apply(name);
    T answer = write.get();
    return switch (outcome) {
      case CLEAN -> answer;
      case RETRIED -> write.get();
      case LOST -> throw new JobStoreException(name + " applied but its answer was lost", null);
    };
  }

  @Override
  public ClaimResult claim(Job candidate, Instant now, Instant cutoff) {
    return write("claim", () -> store.claim(candidate, now, cutoff));
  }

  @Override
  public ClaimResult takeOver(Job candidate, String lostExecutionId, Instant now) {
    return write("takeOver", () -> store.takeOver(candidate, lostExecutionId, now));
  }

  @Override
  public ClaimResult replaceSucceeded(Job candidate, String seen) {
    return write("replaceSucceeded", () -> store.replaceSucceeded(candidate, seen));
  }

  @Override
  public Optional<Job> find(String jobId) {
    return store.find(jobId);
  }

  @Override
  public boolean markDispatched(String jobId, String executionId, int step, Instant lease) {
    return write("markDispatched", () -> store.markDispatched(jobId, executionId, step, lease));
  }

  @Override
  public boolean recordStarted(
      String jobId, String executionId, int step, StepRecord run, Instant now, Instant lease) {
    return write(
        "recordStarted", () -> store.recordStarted(jobId, executionId, step, run, now, lease));
  }

  @Override
  public StepWrite recordSuccess(StepSuccess success) {
    return write("recordSuccess", () -> store.recordSuccess(success));
  }

  @Override
  public boolean recordFailure(
      String jobId,
      String executionId,
      int step,
      StepRecord run,
      JobError error,
      Instant now,
      int streak,
      Instant retryAfter) {
    return write(
        "recordFailure",
        () -> store.recordFailure(jobId, executionId, step, run, error, now, streak, retryAfter));
  }

  @Override
  public boolean recordAdopted(
      String jobId,
      String executionId,
      dev.derive.protocol.JobStatus seen,
      String newExecutionId,
      int lastStep,
      StepRecord run,
      Instant now) {
    return write(
        "recordAdopted",
        () -> store.recordAdopted(jobId, executionId, seen, newExecutionId, lastStep, run, now));
  }
}
