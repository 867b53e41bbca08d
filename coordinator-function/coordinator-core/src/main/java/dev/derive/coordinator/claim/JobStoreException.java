package dev.derive.coordinator.claim;

/** Thrown when the job store fails for a reason other than a failed condition; retryable. */
public class JobStoreException extends RuntimeException {
  /** Wraps the store's own exception. */
  public JobStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
