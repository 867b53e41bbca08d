package dev.derive.worker.runtime.aws;

import dev.derive.worker.runtime.QueuedMessage;
import dev.derive.worker.runtime.StepQueue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;

/**
 * {@link StepQueue} on SQS. A queue's URL comes from its ARN ({@code
 * arn:aws:sqs:region:account:name}, {@code GetQueueUrl} once per queue); visibility changes and
 * deletes go in batches of up to {@value #MAX_ENTRIES} per queue ({@code
 * ChangeMessageVisibilityBatch}, {@code DeleteMessageBatch}, authorised as their single-message
 * actions). Needs {@code sqs:GetQueueUrl}, {@code sqs:SendMessage}, {@code
 * sqs:ChangeMessageVisibility} and {@code sqs:DeleteMessage} on the worker's own queue ({@code
 * template.yaml}, statement {@code HoldOwnSteps}).
 */
public final class SqsStepQueue implements StepQueue {
  /** SQS's limit on entries per batch call. */
  static final int MAX_ENTRIES = 10;

  private static final System.Logger LOG = System.getLogger(SqsStepQueue.class.getName());

  private final SqsClient sqs;
  private final Map<String, String> urls = new ConcurrentHashMap<>();

  public SqsStepQueue(SqsClient sqs) {
    this.sqs = sqs;
  }

  @Override
  public void requeue(String queueArn, String body) {
    String url = urls.computeIfAbsent(queueArn, this::url);
    sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
  }

  @Override
  public Set<String> changeVisibility(Collection<QueuedMessage> messages, int seconds) {
    return inBatches(
        messages,
        (url, chunk) ->
            sqs.changeMessageVisibilityBatch(
                    b ->
                        b.queueUrl(url)
                            .entries(
                                chunk.stream()
                                    .map(
                                        m ->
                                            ChangeMessageVisibilityBatchRequestEntry.builder()
                                                .id(entryId(m, chunk))
                                                .receiptHandle(m.receiptHandle())
                                                .visibilityTimeout(seconds)
                                                .build())
                                    .toList()))
                .failed());
  }

  @Override
  public Set<String> delete(Collection<QueuedMessage> messages) {
    return inBatches(
        messages,
        (url, chunk) ->
            sqs.deleteMessageBatch(
                    b ->
                        b.queueUrl(url)
                            .entries(
                                chunk.stream()
                                    .map(
                                        m ->
                                            DeleteMessageBatchRequestEntry.builder()
                                                .id(entryId(m, chunk))
                                                .receiptHandle(m.receiptHandle())
                                                .build())
                                    .toList()))
                .failed());
  }

  /** One batch call, answering the entries that failed. */
  @FunctionalInterface
  private interface BatchCall {
    List<BatchResultErrorEntry> call(String queueUrl, List<QueuedMessage> chunk);
  }

  /**
   * Calls {@code call} per queue and per {@value #MAX_ENTRIES} messages; answers the ids of the
   * messages whose entry was refused.
   *
   * @throws SdkException if a call failed (the messages of later calls are not tried)
   * @throws IllegalArgumentException if a queue ARN is not one
   */
  private Set<String> inBatches(Collection<QueuedMessage> messages, BatchCall call) {
    Map<String, List<QueuedMessage>> byQueue = new LinkedHashMap<>();
    messages.forEach(m -> byQueue.computeIfAbsent(m.queueArn(), q -> new ArrayList<>()).add(m));
    Set<String> failed = new LinkedHashSet<>();
    for (Map.Entry<String, List<QueuedMessage>> queue : byQueue.entrySet()) {
      List<QueuedMessage> all = queue.getValue();
      for (int from = 0; from < all.size(); from += MAX_ENTRIES) {
        List<QueuedMessage> chunk = all.subList(from, Math.min(all.size(), from + MAX_ENTRIES));
        String url = urls.computeIfAbsent(queue.getKey(), this::url);
        for (BatchResultErrorEntry error : call.call(url, chunk)) {
          QueuedMessage message = chunk.get(Integer.parseInt(error.id()));
          LOG.log(
              System.Logger.Level.WARNING,
              "message " + message.messageId() + ": " + error.code() + " " + error.message());
          failed.add(message.messageId());
        }
      }
    }
    return failed;
  }

  /** A batch entry's id: the message's place in its chunk (message ids may hold other chars). */
  private static String entryId(QueuedMessage message, List<QueuedMessage> chunk) {
    return Integer.toString(chunk.indexOf(message));
  }

  private String url(String queueArn) {
    String[] parts = queueArn == null ? new String[0] : queueArn.split(":");
    if (parts.length != 6 || !"sqs".equals(parts[2])) {
      throw new IllegalArgumentException("not an SQS queue ARN: " + queueArn);
    }
    return sqs.getQueueUrl(b -> b.queueName(parts[5]).queueOwnerAWSAccountId(parts[4])).queueUrl();
  }
}
