package dev.derive.infra.local.sqs;

/**
 * Thrown when an SQS event source mapping cannot be created, for the reasons Lambda's {@code
 * CreateEventSourceMapping} refuses one (e.g. a queue visibility timeout shorter than the function
 * timeout).
 */
public class EventSourceMappingException extends RuntimeException {
  /** With a message in Lambda's words. */
  public EventSourceMappingException(String message) {
    super(message);
  }
}
