package dev.derive.storage;

/** Thrown when the object store fails for a reason other than a missing object; retryable. */
public class ObjectStoreException extends RuntimeException {
  /** Wraps the store's own exception. */
  public ObjectStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
