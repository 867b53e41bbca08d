package dev.derive.storage;

/** Thrown when the object store fails for a reason other than a missing object; retryable. */
public class ObjectStoreException extends RuntimeException {
  private final String description;

  /** Wraps the store's own exception. */
  public ObjectStoreException(String message, Throwable cause) {
    this(message, cause, null);
  }

  /**
   * Wraps the store's own exception, saying what went wrong in a sentence a user may read.
   *
   * @param description no class name, address or key (e.g. "the S3 service answered HTTP 503
   *     (SlowDown)"), or {@code null}
   */
  public ObjectStoreException(String message, Throwable cause, String description) {
    super(message, cause);
    this.description = description;
  }

  /** What went wrong as a user may read it, or {@code null} when the store did not say. */
  public String description() {
    return description;
  }
}
