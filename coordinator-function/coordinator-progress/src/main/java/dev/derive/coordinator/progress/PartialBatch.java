package dev.derive.coordinator.progress;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.derive.protocol.telemetry.Correlation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The loop every SQS batch of this artifact runs: each message handled on its own, its job's log
 * correlation cleared after it, and the partial batch response listing the messages SQS is to
 * deliver again ({@code ReportBatchItemFailures}, as each event source mapping in {@code
 * template.yaml} sets). Which failures are reported is the handler's to say.
 */
final class PartialBatch {
  /** One message's handling. */
  @FunctionalInterface
  interface Item {
    /**
     * Handles {@code message}.
     *
     * @return whether it is done with (acknowledged); {@code false} reports it as a batch item
     *     failure
     */
    boolean handle(SQSEvent.SQSMessage message);
  }

  private PartialBatch() {}

  /**
   * Handles every message of {@code event} (none when it has no records) with {@code item}. An
   * exception {@code item} throws is not caught: it fails the whole invocation.
   */
  static SQSBatchResponse process(SQSEvent event, Item item) {
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    List<SQSEvent.SQSMessage> records = event.getRecords() == null ? List.of() : event.getRecords();
    for (SQSEvent.SQSMessage message : records) {
      try {
        if (!item.handle(message)) {
          failures.add(new SQSBatchResponse.BatchItemFailure(message.getMessageId()));
        }
      } finally {
        Correlation.clearJob();
      }
    }
    return new SQSBatchResponse(failures);
  }

  /**
   * An item that runs {@code action} and reports the message as failed when it throws a {@link
   * RuntimeException} (DynamoDB or SQS errors, throttling), logging it with {@code log} as {@code
   * "<what> <id> failed; SQS will deliver it again"}.
   */
  static Item redeliveredOnException(
      System.Logger log, String what, Consumer<SQSEvent.SQSMessage> action) {
    return message -> {
      try {
        action.accept(message);
        return true;
      } catch (RuntimeException e) {
        log.log(
            System.Logger.Level.WARNING,
            "%s %s failed; SQS will deliver it again".formatted(what, message.getMessageId()),
            e);
        return false;
      }
    };
  }
}
