package dev.derive.coordinator.aws;

import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.dispatch.StepDispatcher;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.telemetry.XRayTraceHeader;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;

/**
 * The {@link StepDispatcher} on SQS: one {@code SendMessage} of the JSON-encoded {@link
 * StepMessage} to the queue whose URL is in the environment variable the capability's descriptor
 * names ({@link CapabilityDescriptor#queueUrlVariableOf}: {@code <NAME>_QUEUE_URL}), with message
 * attributes {@code jobId}, {@code stepIndex} and {@code traceId} so that queues can be inspected
 * without decoding bodies.
 */
public final class SqsStepDispatcher implements StepDispatcher {
  private final SqsClient sqs;
  private final Function<String, String> queueUrlOf;

  /**
   * @param queueUrlOf the queue of a capability's steps (the value of its {@code <NAME>_QUEUE_URL},
   *     {@link dev.derive.coordinator.config.DeployedCapabilities#queueUrl}); throws if it has none
   */
  public SqsStepDispatcher(SqsClient sqs, Function<String, String> queueUrlOf) {
    this.sqs = sqs;
    this.queueUrlOf = queueUrlOf;
  }

  @Override
  public void dispatch(StepMessage step) {
    String queueUrl = queueUrlOf.apply(step.capability());
    Map<String, MessageAttributeValue> attributes = new HashMap<>();
    attributes.put("jobId", string(step.jobId()));
    attributes.put(
        "stepIndex",
        MessageAttributeValue.builder()
            .dataType("Number")
            .stringValue(Integer.toString(step.stepIndex()))
            .build());
    if (step.traceId() != null) {
      attributes.put("traceId", string(step.traceId()));
    }
    String xrayTrace = XRayTraceHeader.current();
    try {
      sqs.sendMessage(
          b -> {
            b.queueUrl(queueUrl)
                .messageBody(MessageCodec.encode(step))
                .messageAttributes(attributes);
            if (xrayTrace != null) {
              // X-Ray follows the job from this invocation into the worker's (AWSTraceHeader)
              b.messageSystemAttributesWithStrings(
                  Map.of(
                      XRayTraceHeader.SQS_ATTRIBUTE,
                      MessageSystemAttributeValue.builder()
                          .dataType("String")
                          .stringValue(xrayTrace)
                          .build()));
            }
          });
    } catch (SdkException e) {
      throw new DispatchFailedException(
          "SendMessage of step " + step.stepIndex() + " of job " + step.jobId() + " failed", e);
    }
  }

  private static MessageAttributeValue string(String value) {
    return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
  }
}
