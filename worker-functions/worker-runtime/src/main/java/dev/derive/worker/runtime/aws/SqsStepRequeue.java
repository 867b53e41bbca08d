package dev.derive.worker.runtime.aws;

import dev.derive.worker.runtime.StepRequeue;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * {@link StepRequeue} on SQS: the queue's URL from its ARN ({@code
 * arn:aws:sqs:region:account:name}, {@code GetQueueUrl} once per queue), then {@code SendMessage}
 * of the body. Needs {@code sqs:GetQueueUrl} and {@code sqs:SendMessage} on the worker's own queue
 * ({@code template.yaml}, statement {@code RequeueUnstartedSteps}).
 */
public final class SqsStepRequeue implements StepRequeue {
  private final SqsClient sqs;
  private final Map<String, String> urls = new ConcurrentHashMap<>();

  public SqsStepRequeue(SqsClient sqs) {
    this.sqs = sqs;
  }

  @Override
  public void requeue(String queueArn, String body) {
    String url = urls.computeIfAbsent(queueArn, this::url);
    sqs.sendMessage(b -> b.queueUrl(url).messageBody(body));
  }

  private String url(String queueArn) {
    String[] parts = queueArn == null ? new String[0] : queueArn.split(":");
    if (parts.length != 6 || !"sqs".equals(parts[2])) {
      throw new IllegalArgumentException("not an SQS queue ARN: " + queueArn);
    }
    return sqs.getQueueUrl(b -> b.queueName(parts[5]).queueOwnerAWSAccountId(parts[4])).queueUrl();
  }
}
