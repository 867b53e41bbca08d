package dev.derive.coordinator;

/**
 * Base of the coordinator's domain exceptions. Each carries a stable {@link #kind()} (for example
 * {@code source-not-found}) that the API turns into the {@code type} of an RFC 9457 problem; a kind
 * is never renamed.
 */
public abstract class CoordinatorException extends RuntimeException {
  private final String kind;

  protected CoordinatorException(String kind, String message) {
    super(message);
    this.kind = kind;
  }

  protected CoordinatorException(String kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** The stable, machine-readable error kind, e.g. {@code invalid-request}. */
  public String kind() {
    return kind;
  }
}
