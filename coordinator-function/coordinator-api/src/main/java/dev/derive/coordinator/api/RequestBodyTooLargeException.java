package dev.derive.coordinator.api;

/** Thrown when a request body is larger than {@code MAX_REQUEST_BYTES}; answered with 413. */
public class RequestBodyTooLargeException extends RuntimeException {
  /** The stable problem kind. */
  public static final String KIND = "request-too-large";

  /** Names the limit in bytes. */
  public RequestBodyTooLargeException(long limit) {
    super("request bodies are limited to " + limit + " bytes");
  }
}
