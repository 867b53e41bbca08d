package dev.derive.coordinator.completion;

/** A job already holds {@link CompletionOutbox#MAX_CALLBACKS} callbacks; answered 503. */
public final class TooManyCallbacksException extends RuntimeException {
  private final String jobId;

  /** For job {@code jobId}. */
  public TooManyCallbacksException(String jobId) {
    super(
        "job "
            + jobId
            + " already calls back "
            + CompletionOutbox.MAX_CALLBACKS
            + " receivers; retry when it has ended, or poll it");
    this.jobId = jobId;
  }

  /** The job. */
  public String jobId() {
    return jobId;
  }
}
