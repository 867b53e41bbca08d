package dev.derive.worker.runtime.report;

import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.StepResult;
import java.util.Objects;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * {@link StepResultPublisher} that sends each result, encoded by {@link MessageCodec}, to the
 * step-results queue (env {@code STEP_RESULTS_QUEUE_URL} in {@code template.yaml}).
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
    sqs.sendMessage(
        SendMessageRequest.builder()
            .queueUrl(queueUrl)
            .messageBody(MessageCodec.encode(result))
            .build());
  }
}
