package dev.derive.coordinator.aws;

import dev.derive.coordinator.claim.ClaimCheck;
import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.job.Job;
import dev.derive.protocol.message.MessageCodec;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * {@link LostClaimWatch} on SQS: a {@link ClaimCheck} sent to the step-results queue ({@code
 * STEP_RESULTS_QUEUE_URL}, which the progress function consumes) with {@code DelaySeconds} until
 * one second after the claim's lease (at most SQS's 900 s), marked by its message attribute.
 */
public final class SqsLostClaimWatch implements LostClaimWatch {
  /** SQS's longest {@code DelaySeconds}. */
  static final long MAX_DELAY_SECONDS = 900;

  private final SqsClient sqs;
  private final String queueUrl;
  private final Clock clock;

  public SqsLostClaimWatch(SqsClient sqs, String queueUrl, Clock clock) {
    this.sqs = sqs;
    this.queueUrl = queueUrl;
    this.clock = clock;
  }

  @Override
  public void watch(Job job) {
    int delay = (int) delaySeconds(job, clock);
    sqs.sendMessage(
        b ->
            b.queueUrl(queueUrl)
                .delaySeconds(delay)
                .messageBody(MessageCodec.encode(new ClaimCheck(job.jobId(), job.executionId())))
                .messageAttributes(
                    Map.of(
                        ClaimCheck.MESSAGE_KIND_ATTRIBUTE,
                        MessageAttributeValue.builder()
                            .dataType("String")
                            .stringValue(ClaimCheck.KIND)
                            .build())));
  }

  /** Seconds from now until one second after {@code job}'s lease, within 0 to 900. */
  static long delaySeconds(Job job, Clock clock) {
    long seconds = Duration.between(clock.instant(), job.leaseExpiresAt()).toSeconds() + 1;
    return Math.clamp(seconds, 0, MAX_DELAY_SECONDS);
  }
}
