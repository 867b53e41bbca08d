package dev.derive.coordinator.job;

import dev.derive.protocol.JobStatus;
import dev.derive.storage.PresignedDownload;
import java.time.Duration;

/**
 * The answer to a derivative request.
 *
 * @param jobId the derivative's fingerprint
 * @param status SUCCEEDED on a cache hit; otherwise the status of the job claimed or joined
 * @param download the derivative, on a cache hit; otherwise {@code null}
 * @param maxWait how long the request asked to wait for the derivative (zero: answer at once)
 * @param outcome how the request was answered: from the cache, by joining a job in flight, or by
 *     starting one
 */
public record Submission(
    String jobId, JobStatus status, PresignedDownload download, Duration maxWait, Outcome outcome) {

  /** How a request was answered; the API says it as {@code outcome} in lower case. */
  public enum Outcome {
    /** The derivative was already in the bucket (made earlier, or just now by another request). */
    CACHED,
    /** Another request's execution is in flight: this request shares it, nothing new is queued. */
    JOINED,
    /** This request claimed a new execution and queued its first step to run. */
    STARTED
  }

  /** A submission that does not wait. */
  public Submission(String jobId, JobStatus status, PresignedDownload download, Outcome outcome) {
    this(jobId, status, download, Duration.ZERO, outcome);
  }

  /** Whether the derivative was already made and can be downloaded now. */
  public boolean isReady() {
    return download != null;
  }
}
