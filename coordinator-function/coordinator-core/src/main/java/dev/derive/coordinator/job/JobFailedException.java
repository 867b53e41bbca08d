package dev.derive.coordinator.job;

import dev.derive.coordinator.CoordinatorException;

/**
 * Thrown when a request for a derivative meets its job FAILED with a permanent error (or the job
 * failed while the request waited): the request is answered with that error at once. The kind is
 * the step's error type (e.g. {@code corrupt-input}), so the API's problem type names what went
 * wrong.
 */
public class JobFailedException extends CoordinatorException {
  private final String jobId;
  private final JobError error;

  /** The failure of job {@code jobId} with {@code error}. */
  public JobFailedException(String jobId, JobError error) {
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
