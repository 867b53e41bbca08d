package dev.derive.worker.runtime;

import java.util.Objects;

/**
 * One received message of a batch, as the queue knows it: what changing its visibility, deleting it
 * or putting a copy of it back needs.
 *
 * @param messageId the queue's id of the message (the partial batch response names it)
 * @param queueArn the ARN of the queue it was received from
 * @param receiptHandle the handle of this receipt of it (valid until it is received again)
 */
public record QueuedMessage(String messageId, String queueArn, String receiptHandle) {
  public QueuedMessage {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(queueArn, "queueArn");
    Objects.requireNonNull(receiptHandle, "receiptHandle");
  }
}
