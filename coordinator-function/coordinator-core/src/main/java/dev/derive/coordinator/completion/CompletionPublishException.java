package dev.derive.coordinator.completion;

/** A completion event or callback could not be handed on; the job's notice stays pending. */
public final class CompletionPublishException extends RuntimeException {
  /** With what failed and why. */
  public CompletionPublishException(String message, Throwable cause) {
    super(message, cause);
  }
}
