package dev.derive.worker.runtime.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import dev.derive.worker.runtime.StepDelivery;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the SQS edge ({@link StepBatchProcessor}) reads a record into a {@link StepDelivery}. */
class SqsDeliveryTest {

  @Test
  void theAttributesSqsSetsBecomeTheDeliverysAttemptQueueTimeAndTrace() {
    SQSMessage record =
        record(
            Map.of(
                "ApproximateReceiveCount", "3",
                "SentTimestamp", "1700000000000",
                "AWSTraceHeader", "Root=1-abc"));

    StepDelivery delivery = StepBatchProcessor.delivery(record);

    assertThat(delivery.messageId()).isEqualTo("m-1");
    assertThat(delivery.body()).isEqualTo("{}");
    assertThat(delivery.attempt()).isEqualTo(3);
    assertThat(delivery.sentAtMillis()).isEqualTo(1_700_000_000_000L);
    assertThat(delivery.traceHeader()).isEqualTo("Root=1-abc");
    assertThat(delivery.queueAgeMillis(1_700_000_001_500L)).isEqualTo(1_500);
    assertThat(delivery.queueAgeMillis(1_699_999_999_000L))
        .as("a clock behind SQS's gives no negative age")
        .isZero();
  }

  @Test
  void missingOrUnreadableAttributesMeanAFirstDeliveryOfUnknownAge() {
    for (SQSMessage record :
        new SQSMessage[] {
          record(null),
          record(Map.of()),
          record(Map.of("ApproximateReceiveCount", "many", "SentTimestamp", "yesterday")),
          record(Map.of("ApproximateReceiveCount", "0"))
        }) {
      StepDelivery delivery = StepBatchProcessor.delivery(record);

      assertThat(delivery.attempt()).isEqualTo(1);
      assertThat(delivery.queueAgeMillis(1_000)).isNull();
      assertThat(delivery.traceHeader()).isNull();
    }
  }

  private static SQSMessage record(Map<String, String> attributes) {
    SQSMessage record = new SQSMessage();
    record.setMessageId("m-1");
    record.setBody("{}");
    record.setAttributes(attributes);
    return record;
  }
}
