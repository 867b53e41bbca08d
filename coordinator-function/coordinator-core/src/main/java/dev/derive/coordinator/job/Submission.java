package dev.derive.coordinator.job;

import dev.derive.coordinator.storage.PresignedDownload;
import dev.derive.protocol.JobStatus;
import java.time.Duration;

/**
 * The answer to a derivative request.
 *
 * @param jobId the derivative's fingerprint
 * @param status SUCCEEDED on a cache hit; otherwise the status of the job claimed or joined
 * @param download the derivative, on a cache hit; otherwise {@code null}
 * @param maxWait how long the request asked to wait for the derivative (zero: answer at once)
 */
public record Submission(
    String jobId, JobStatus status, PresignedDownload download, Duration maxWait) {
  /** A submission that does not wait. */
  public Submission(String jobId, JobStatus status, PresignedDownload download) {
    this(jobId, status, download, Duration.ZERO);
  }

  /** Whether the derivative was already made and can be downloaded now. */
  public boolean isReady() {
    return download != null;
  }
}
