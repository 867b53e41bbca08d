package dev.derive.infra.endpoint;

/** Thrown when no AWS endpoint can be started or reached; the message says what to install. */
public class EndpointUnavailableException extends RuntimeException {
  public EndpointUnavailableException(String message) {
    super(message);
  }

  public EndpointUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
