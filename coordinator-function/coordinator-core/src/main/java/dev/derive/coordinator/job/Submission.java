package dev.derive.coordinator.job;

import dev.derive.coordinator.storage.PresignedDownload;
import dev.derive.protocol.JobStatus;

/**
 * The answer to a derivative request.
 *
 * @param jobId the derivative's fingerprint
 * @param status SUCCEEDED on a cache hit; otherwise the status of the job claimed or joined
 * @param download the derivative, on a cache hit; otherwise {@code null}
 */
public record Submission(String jobId, JobStatus status, PresignedDownload download) {
  /** Whether the derivative was already made and can be downloaded now. */
  public boolean isReady() {
    return download != null;
  }
}
