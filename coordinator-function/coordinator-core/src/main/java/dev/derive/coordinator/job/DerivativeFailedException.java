package dev.derive.coordinator.job;

import dev.derive.coordinator.CoordinatorException;

/** Thrown when the content of a derivative is asked for whose job failed. */
public class DerivativeFailedException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "derivative-failed";

  private final String jobId;

  /** Names the job and, when known, why and at which step it failed. */
  public DerivativeFailedException(String jobId, JobError error) {
    super(
        KIND,
        "derivative "
            + jobId
            + " failed"
            + (error == null
                ? ""
                : " at step "
                    + (error.step() + 1)
                    + " (steps are numbered from 1): "
                    + error.type()
                    + ": "
                    + error.detail()));
    this.jobId = jobId;
  }

  /** The job (the derivative's fingerprint). */
  public String jobId() {
    return jobId;
  }
}
