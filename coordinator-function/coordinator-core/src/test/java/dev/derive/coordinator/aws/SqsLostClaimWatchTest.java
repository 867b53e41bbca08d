package dev.derive.coordinator.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Jobs;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.claim.ClaimCheck;
import dev.derive.coordinator.job.Job;
import dev.derive.protocol.message.MessageCodec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/** The claim check as the progress function receives it, on a real endpoint (moto). */
class SqsLostClaimWatchTest {
  private final SqsClient sqs = LocalAws.sqs();
  private final String queue = LocalAws.createQueue(sqs);

  @Test
  void aCheckIsDueASecondAfterTheLeaseAndAtMostFifteenMinutesAhead() {
    Instant now = Instant.parse("2030-01-01T00:00:00Z");
    Clock clock = Clock.fixed(now, ZoneOffset.UTC);

    assertThat(SqsLostClaimWatch.delaySeconds(claimed(now, Duration.ofSeconds(60)), clock))
        .isEqualTo(61);
    assertThat(SqsLostClaimWatch.delaySeconds(claimed(now, Duration.ofHours(1)), clock))
        .as("SQS's longest delay")
        .isEqualTo(900);
    assertThat(
            SqsLostClaimWatch.delaySeconds(
                claimed(now.minusSeconds(120), Duration.ofSeconds(60)), clock))
        .as("already lapsed")
        .isZero();
  }

  @Test
  void theCheckIsMarkedByItsAttributeAndNamesTheJobAndExecution() {
    Job lapsed = claimed(Instant.now().minusSeconds(120), Duration.ofSeconds(60));
    new SqsLostClaimWatch(sqs, queue, Clock.systemUTC()).watch(lapsed);

    Message received =
        sqs.receiveMessage(b -> b.queueUrl(queue).messageAttributeNames("All").waitTimeSeconds(2))
            .messages()
            .getFirst();
    assertThat(received.messageAttributes().get(ClaimCheck.MESSAGE_KIND_ATTRIBUTE).stringValue())
        .isEqualTo(ClaimCheck.KIND);
    assertThat(MessageCodec.decode(received.body(), ClaimCheck.class))
        .isEqualTo(new ClaimCheck(lapsed.jobId(), lapsed.executionId()));
  }

  private static Job claimed(Instant at, Duration lease) {
    return Jobs.claimed(Jobs.newId(), 1, at, lease);
  }
}
