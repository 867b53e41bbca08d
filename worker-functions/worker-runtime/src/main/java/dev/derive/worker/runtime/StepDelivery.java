package dev.derive.worker.runtime;

import java.util.Objects;

/**
 * One delivery of a step message, in Derive's terms: what the worker core needs from the queue
 * message that carried it. The SQS adapter ({@code lambda.StepBatchProcessor}) builds it from an
 * {@code SQSMessage}; nothing past that adapter sees a Lambda or SQS type.
 *
 * @param messageId the queue's id of the message (the partial batch response names it)
 * @param body the encoded {@code StepMessage}, possibly malformed
 * @param attempt the 1-based delivery ({@code ApproximateReceiveCount}; 1 when unknown)
 * @param sentAtMillis when the queue received the message ({@code SentTimestamp}, epoch
 *     milliseconds), or {@code null} if unknown
 * @param traceHeader the X-Ray trace header the message carried ({@code AWSTraceHeader}), or {@code
 *     null}
 * @param queueArn the ARN of the queue it came from, where a fresh copy of it goes ({@link
 *     StepRequeue}), or {@code null} if unknown
 */
public record StepDelivery(
    String messageId,
    String body,
    int attempt,
    Long sentAtMillis,
    String traceHeader,
    String queueArn) {
  public StepDelivery {
    Objects.requireNonNull(messageId, "messageId");
    if (attempt < 1) {
      throw new IllegalArgumentException("a delivery attempt is 1 or more: " + attempt);
    }
  }

  /** A delivery whose queue is unknown (it cannot be put back as a fresh copy). */
  public StepDelivery(
      String messageId, String body, int attempt, Long sentAtMillis, String traceHeader) {
    this(messageId, body, attempt, sentAtMillis, traceHeader, null);
  }

  /** Milliseconds the message spent in its queue until {@code nowMillis}, or null if unknown. */
  public Long queueAgeMillis(long nowMillis) {
    return sentAtMillis == null ? null : Math.max(0, nowMillis - sentAtMillis);
  }
}
