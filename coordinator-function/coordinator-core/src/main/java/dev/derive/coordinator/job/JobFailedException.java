package dev.derive.coordinator.job;

import dev.derive.coordinator.CoordinatorException;

/**
 * Thrown when a request for a derivative meets its job FAILED with a permanent error, or with a
 * retryable one still held by its backoff (or the job failed while the request waited): the request
 * is answered with that error at once. The kind is the step's error type (e.g. {@code
 * corrupt-input}), so the API's problem type names what went wrong.
 */
public class JobFailedException extends CoordinatorException {
  private final String jobId;
  private final JobError error;
  private final java.time.Instant retryAfter;

  /** The failure of job {@code jobId} with {@code error}. */
  public JobFailedException(String jobId, JobError error) {
    this(jobId, error, null);
  }

  /**
   * The failure of job {@code jobId} with a retryable {@code error} that holds off a new claim
   * until {@code retryAfter} (its backoff; {@code null}: none).
   */
  public JobFailedException(String jobId, JobError error, java.time.Instant retryAfter) {
    super(
        error.type(),
        "job "
            + jobId
            + " failed at step "
            + (error.step() + 1)
            + " (steps are numbered from 1): "
            + error.detail()
            + (error.retryable() ? " (retryable: request it again)" : ""));
    this.jobId = jobId;
    this.error = error;
    this.retryAfter = retryAfter;
  }

  /**
   * When a request may claim the job again, for a retryable failure still held by its backoff: the
   * API answers 503 with {@code Retry-After} until then. Empty otherwise.
   */
  public java.util.Optional<java.time.Instant> retryAfter() {
    return java.util.Optional.ofNullable(retryAfter);
  }

  /** The failed job's id. */
  public String jobId() {
    return jobId;
  }

  /** Why it failed. */
  public JobError error() {
    return error;
  }
}
