package dev.derive.coordinator.aws;

import dev.derive.coordinator.completion.CallbackDelivery;
import dev.derive.coordinator.completion.CallbackQueue;
import dev.derive.coordinator.completion.CompletionPublishException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The callback queue on SQS ({@code CALLBACK_QUEUE_URL}). */
public final class SqsCallbackQueue implements CallbackQueue {
  private final SqsClient sqs;
  private final String queueUrl;

  /** Sends to {@code queueUrl}. */
  public SqsCallbackQueue(SqsClient sqs, String queueUrl) {
    this.sqs = sqs;
    this.queueUrl = queueUrl;
  }

  @Override
  public void enqueue(CallbackDelivery delivery) {
    try {
      sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody(delivery.encode()));
    } catch (SdkException e) {
      throw new CompletionPublishException(
          "SendMessage of callback " + delivery.id() + " failed", e);
    }
  }
}
