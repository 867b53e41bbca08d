package dev.derive.protocol.message;

/** Thrown when an SQS message body is not a valid protocol message; never worth retrying. */
public class MalformedMessageException extends RuntimeException {
  public MalformedMessageException(String message, Throwable cause) {
    super(message, cause);
  }
}
