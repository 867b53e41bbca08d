package dev.derive.infra.local;

import dev.derive.infra.local.lambda.FunctionInvoker;
import dev.derive.infra.local.resources.ProvisionedResource;
import dev.derive.infra.local.sqs.EventSourceMappingException;
import dev.derive.infra.local.sqs.SqsEventSourceMapping;
import dev.derive.infra.local.template.FunctionDefinition;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Starts the SQS event source mappings of the template's functions, after the checks Lambda's
 * {@code CreateEventSourceMapping} makes; a disabled event ({@code Enabled: false}) starts none.
 */
final class EventSourceMappings {
  private final SqsClient sqs;
  private final Map<String, ProvisionedResource> resources;
  private final FunctionInvoker invoker;
  private final LocalCloudOptions options;
  private final String region;

  /**
   * @param resources the stack's resources, to find a queue's URL from its ARN
   * @param invoker what runs a batch (the local cloud)
   */
  EventSourceMappings(
      SqsClient sqs,
      Map<String, ProvisionedResource> resources,
      FunctionInvoker invoker,
      LocalCloudOptions options,
      String region) {
    this.sqs = sqs;
    this.resources = resources;
    this.invoker = invoker;
    this.options = options;
    this.region = region;
  }

  /**
   * Starts a poller for each enabled SQS event of {@code function}, handing each to {@code closing}
   * before it starts, so a failure later leaves nothing running unowned.
   *
   * @param delivered counts the messages handed to the function
   * @throws EventSourceMappingException if a queue's visibility timeout is shorter than the
   *     function's timeout
   */
  void start(FunctionDefinition function, AtomicLong delivered, Consumer<AutoCloseable> closing) {
    for (FunctionDefinition.SqsEvent event : function.sqsEvents()) {
      if (!event.enabled()) {
        continue;
      }
      String queueUrl = queueUrlForArn(event.queueArn());
      requireVisibilityTimeoutCoversFunctionTimeout(sqs, queueUrl, function);
      SqsEventSourceMapping mapping =
          new SqsEventSourceMapping(
              function.logicalId(),
              event,
              queueUrl,
              sqs,
              invoker,
              delivered,
              event.maximumConcurrency().orElse(options.defaultConcurrency()),
              options.pollWaitSeconds(),
              region,
              options.log());
      closing.accept(mapping);
      mapping.start();
    }
  }

  /**
   * Refuses a mapping as Lambda's {@code CreateEventSourceMapping} does when the queue's visibility
   * timeout is shorter than the function's timeout (a message would reappear while still being
   * processed).
   *
   * @throws EventSourceMappingException if it is
   */
  private static void requireVisibilityTimeoutCoversFunctionTimeout(
      SqsClient sqs, String queueUrl, FunctionDefinition function) {
    String value =
        sqs.getQueueAttributes(
                b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.VISIBILITY_TIMEOUT))
            .attributes()
            .get(QueueAttributeName.VISIBILITY_TIMEOUT);
    int visibilityTimeout = value == null ? 30 : Integer.parseInt(value);
    if (visibilityTimeout < function.timeoutSeconds()) {
      throw new EventSourceMappingException(
          function.logicalId()
              + " <- "
              + queueUrl
              + ": Queue visibility timeout: "
              + visibilityTimeout
              + " seconds is less than Function timeout: "
              + function.timeoutSeconds()
              + " seconds");
    }
  }

  private String queueUrlForArn(String arn) {
    for (ProvisionedResource resource : resources.values()) {
      if (arn.equals(resource.attributes().get("Arn"))
          && resource.type().equals("AWS::SQS::Queue")) {
        return resource.reference();
      }
    }
    String name = arn.substring(arn.lastIndexOf(':') + 1);
    return sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
  }
}
