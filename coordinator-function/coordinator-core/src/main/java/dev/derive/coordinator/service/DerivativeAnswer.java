package dev.derive.coordinator.service;

import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.JobFailedException;
import dev.derive.coordinator.job.JobView;
import dev.derive.coordinator.job.Submission;
import java.time.Instant;
import java.util.Optional;

/** How Derive answered a {@link DerivativeAsk}; each entry point maps it to its own response. */
public sealed interface DerivativeAnswer {
  /** The derivative's fingerprint (its job's id). */
  String jobId();

  /** It was in the bucket already (made earlier, or just now by another request). */
  record Cached(Submission submission) implements DerivativeAnswer {
    @Override
    public String jobId() {
      return submission.jobId();
    }
  }

  /** A job made it while the request waited: {@code view} is the ended job. */
  record Made(Submission submission, JobView view) implements DerivativeAnswer {
    @Override
    public String jobId() {
      return submission.jobId();
    }
  }

  /** A job makes it (started or joined) and had not ended when the wait was over. */
  record Running(Submission submission) implements DerivativeAnswer {
    @Override
    public String jobId() {
      return submission.jobId();
    }
  }

  /**
   * Its job failed: met failed (permanently, or held by its backoff until {@code retryAfter}), or
   * failed while the request waited.
   */
  record Failed(String jobId, JobError error, Optional<Instant> retryAfter)
      implements DerivativeAnswer {
    static Failed of(JobFailedException e) {
      return new Failed(e.jobId(), e.error(), e.retryAfter());
    }

    /** The failure as the problem the API answers with. */
    public JobFailedException problem() {
      return new JobFailedException(jobId, error, retryAfter.orElse(null));
    }
  }
}
