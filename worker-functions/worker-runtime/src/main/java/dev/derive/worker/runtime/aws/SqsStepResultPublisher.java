package dev.derive.worker.runtime.aws;

import dev.derive.aws.SdkFailures;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.StepResult;
import dev.derive.protocol.telemetry.XRayTraceHeader;
import dev.derive.worker.runtime.report.ReportNotSentException;
import dev.derive.worker.runtime.report.StepResultPublisher;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * {@link StepResultPublisher} that sends each result, encoded by {@link MessageCodec}, to the
 * step-results queue (env {@code STEP_RESULTS_QUEUE_URL} in {@code template.yaml}); a failed send
 * is a {@link ReportNotSentException} worded by {@link SdkFailures}.
 */
public final class SqsStepResultPublisher implements StepResultPublisher {
  private final SqsClient sqs;
  private final String queueUrl;

  /**
   * @param sqs the client to use; the caller owns (and closes) it
   * @param queueUrl URL of the step-results queue
   */
  public SqsStepResultPublisher(SqsClient sqs, String queueUrl) {
    this.sqs = Objects.requireNonNull(sqs, "sqs");
    this.queueUrl = Objects.requireNonNull(queueUrl, "queueUrl");
  }

  @Override
  public void publish(StepResult result) {
    SendMessageRequest.Builder request =
        SendMessageRequest.builder().queueUrl(queueUrl).messageBody(MessageCodec.encode(result));
    String xrayTrace = XRayTraceHeader.current();
    if (xrayTrace != null) {
      // X-Ray follows the job from this worker invocation into the progress function's
      request.messageSystemAttributesWithStrings(
          Map.of(
              XRayTraceHeader.SQS_ATTRIBUTE,
              MessageSystemAttributeValue.builder()
                  .dataType("String")
                  .stringValue(xrayTrace)
                  .build()));
    }
    try {
      sqs.sendMessage(request.build());
    } catch (SdkException e) {
      String why = SdkFailures.describe(e);
      throw new ReportNotSentException(why == null ? "the queue service failed" : why, e);
    }
  }
}
