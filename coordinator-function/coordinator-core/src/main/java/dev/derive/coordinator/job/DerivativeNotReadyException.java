package dev.derive.coordinator.job;

import dev.derive.coordinator.CoordinatorException;
import dev.derive.protocol.JobStatus;

/** Thrown when the content of a derivative is asked for while its job is still running. */
public class DerivativeNotReadyException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "derivative-not-ready";

  private final String jobId;

  /** Names the job and its status. */
  public DerivativeNotReadyException(String jobId, JobStatus status) {
    super(KIND, "derivative " + jobId + " is not ready: its job is " + status);
    this.jobId = jobId;
  }

  /** The job (the derivative's fingerprint). */
  public String jobId() {
    return jobId;
  }
}
