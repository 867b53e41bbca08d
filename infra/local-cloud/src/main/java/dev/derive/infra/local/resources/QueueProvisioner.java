package dev.derive.infra.local.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueNameExistsException;

/**
 * {@code AWS::SQS::Queue}: honours {@code QueueName} (default {@code <stack>-<logicalId>}, with
 * {@code .fifo} for FIFO queues), {@code VisibilityTimeout}, {@code MessageRetentionPeriod}, {@code
 * DelaySeconds}, {@code MaximumMessageSize}, {@code ReceiveMessageWaitTimeSeconds}, {@code
 * RedrivePolicy} (its {@code deadLetterTargetArn} already evaluated, so the dead-letter queue must
 * exist first), {@code FifoQueue} and {@code ContentBasedDeduplication}. An existing queue gets the
 * attributes set again. {@code Ref} is the queue URL; attributes {@code Arn}, {@code QueueName},
 * {@code QueueUrl}.
 */
public final class QueueProvisioner extends NamedResourceProvisioner {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, QueueAttributeName> ATTRIBUTES =
      Map.of(
          "VisibilityTimeout", QueueAttributeName.VISIBILITY_TIMEOUT,
          "MessageRetentionPeriod", QueueAttributeName.MESSAGE_RETENTION_PERIOD,
          "DelaySeconds", QueueAttributeName.DELAY_SECONDS,
          "MaximumMessageSize", QueueAttributeName.MAXIMUM_MESSAGE_SIZE,
          "ReceiveMessageWaitTimeSeconds", QueueAttributeName.RECEIVE_MESSAGE_WAIT_TIME_SECONDS,
          "ContentBasedDeduplication", QueueAttributeName.CONTENT_BASED_DEDUPLICATION);

  private final SqsClient sqs;

  /** Creates queues with {@code sqs}; {@code stackName} prefixes default names. */
  public QueueProvisioner(SqsClient sqs, String stackName) {
    super("AWS::SQS::Queue", "QueueName", "queue", stackName);
    this.sqs = sqs;
  }

  @Override
  UnaryOperator<String> defaultName(Map<String, Object> properties) {
    return name -> fifo(properties) ? name + ".fifo" : name;
  }

  private static boolean fifo(Map<String, Object> properties) {
    return "true".equalsIgnoreCase(String.valueOf(properties.get("FifoQueue")));
  }

  @Override
  ProvisionedResource create(String logicalId, String name, Map<String, Object> properties) {
    boolean fifo = fifo(properties);
    Map<QueueAttributeName, String> attributes = attributes(logicalId, properties, fifo);
    String url;
    try {
      url = sqs.createQueue(b -> b.queueName(name).attributes(attributes)).queueUrl();
    } catch (QueueNameExistsException exists) {
      url = sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
      Map<QueueAttributeName, String> settable = new LinkedHashMap<>(attributes);
      settable.remove(QueueAttributeName.FIFO_QUEUE);
      String existingUrl = url;
      sqs.setQueueAttributes(b -> b.queueUrl(existingUrl).attributes(settable));
    }
    String queueUrl = url;
    String arn =
        sqs.getQueueAttributes(
                b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
            .attributes()
            .get(QueueAttributeName.QUEUE_ARN);
    return new ProvisionedResource(
        logicalId, type(), url, Map.of("Arn", arn, "QueueName", name, "QueueUrl", url));
  }

  private static Map<QueueAttributeName, String> attributes(
      String logicalId, Map<String, Object> properties, boolean fifo) {
    Map<QueueAttributeName, String> attributes = new LinkedHashMap<>();
    ATTRIBUTES.forEach(
        (property, attribute) -> {
          Object value = properties.get(property);
          if (value != null) {
            attributes.put(attribute, String.valueOf(value));
          }
        });
    if (fifo) {
      attributes.put(QueueAttributeName.FIFO_QUEUE, "true");
    }
    Object redrive = properties.get("RedrivePolicy");
    if (redrive != null) {
      attributes.put(QueueAttributeName.REDRIVE_POLICY, redrivePolicy(logicalId, redrive));
    }
    return attributes;
  }

  /** SQS wants the policy as a JSON string with {@code maxReceiveCount} as a number. */
  private static String redrivePolicy(String logicalId, Object redrive) {
    if (redrive instanceof String text) {
      return text;
    }
    if (!(redrive instanceof Map<?, ?> map) || map.get("deadLetterTargetArn") == null) {
      throw new ResourceProvisioningException(
          logicalId + ".RedrivePolicy needs deadLetterTargetArn and maxReceiveCount");
    }
    Map<String, Object> policy = new LinkedHashMap<>();
    policy.put("deadLetterTargetArn", String.valueOf(map.get("deadLetterTargetArn")));
    policy.put("maxReceiveCount", Integer.parseInt(String.valueOf(map.get("maxReceiveCount"))));
    try {
      return JSON.writeValueAsString(policy);
    } catch (JsonProcessingException e) {
      throw new ResourceProvisioningException("cannot encode " + logicalId + ".RedrivePolicy", e);
    }
  }
}
