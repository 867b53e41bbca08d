package dev.derive.worker.runtime.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse.BatchItemFailure;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import dev.derive.protocol.telemetry.Correlation;
import dev.derive.worker.runtime.StepDelivery;
import dev.derive.worker.runtime.StepRequeue;
import dev.derive.worker.runtime.StepWorker;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The SQS edge of every worker function: takes an SQS batch of step messages and returns a partial
 * batch response (the event source mapping must enable {@code ReportBatchItemFailures}). It turns
 * each {@code SQSMessage} into a {@link StepDelivery} (attempt from {@code
 * ApproximateReceiveCount}, queue time from {@code SentTimestamp}, X-Ray trace from {@code
 * AWSTraceHeader}) and the Lambda {@link Context} into the invocation's remaining time, has a
 * {@link StepWorker} run them (its documentation says what happens to each record) and lists the
 * deliveries it hands back in {@code batchItemFailures}. No type of Lambda or SQS goes past this
 * class.
 *
 * <p>A context without a plausible deadline (a remaining time that is not positive or above {@link
 * StepWorker#MAX_LAMBDA_TIMEOUT_MILLIS}, e.g. a mock Runtime API without {@code
 * Lambda-Runtime-Deadline-Ms}) imposes none.
 */
public final class StepBatchProcessor {
  private static final System.Logger LOG = System.getLogger(StepBatchProcessor.class.getName());

  private final StepWorker worker;
  private final StepRequeue requeue;

  /** The SQS edge of {@code worker}, built once per worker process, at init; no requeue. */
  public StepBatchProcessor(StepWorker worker) {
    this(worker, StepRequeue.NONE);
  }

  /**
   * The SQS edge of {@code worker}; an invocation that reaches a process being replaced puts its
   * messages back as fresh copies through {@code requeue} and acknowledges them, instead of handing
   * them back to wait out their visibility timeout.
   */
  public StepBatchProcessor(StepWorker worker, StepRequeue requeue) {
    this.worker = Objects.requireNonNull(worker, "worker");
    this.requeue = Objects.requireNonNull(requeue, "requeue");
  }

  /**
   * Processes {@code event}.
   *
   * @param event the SQS batch (may be empty)
   * @param context the Lambda context, used for its deadline; {@code null} means no deadline
   * @return the message ids SQS must redeliver, as a partial batch response (never {@code null})
   */
  public SQSBatchResponse process(SQSEvent event, Context context) {
    List<SQSMessage> records =
        event == null || event.getRecords() == null ? List.of() : event.getRecords();
    Correlation.invocation(context == null ? null : context.getAwsRequestId());
    String poisonedBy = worker.poisonedBy();
    if (poisonedBy != null) {
      records = requeueAll(records, poisonedBy);
    }
    List<StepDelivery> deliveries = records.stream().map(StepBatchProcessor::delivery).toList();
    List<String> redeliver = worker.process(deliveries, () -> remainingMillis(context));
    return new SQSBatchResponse(redeliver.stream().map(BatchItemFailure::new).toList());
  }

  /**
   * Puts each record back on its queue as a fresh copy (so acknowledged) on a process being
   * replaced, which starts no step; returns those that could not be, to be handed back.
   */
  private List<SQSMessage> requeueAll(List<SQSMessage> records, String poisonedBy) {
    List<SQSMessage> left = new java.util.ArrayList<>();
    for (SQSMessage record : records) {
      try {
        requeue.requeue(record.getEventSourceArn(), record.getBody());
        LOG.log(
            System.Logger.Level.INFO,
            "message "
                + record.getMessageId()
                + " put back as a fresh copy, not started: this process is being replaced ("
                + poisonedBy
                + ")");
      } catch (RuntimeException e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "message " + record.getMessageId() + " could not be put back: " + e.getMessage());
        left.add(record);
      }
    }
    return left;
  }

  /** The Derive view of an SQS record. */
  static StepDelivery delivery(SQSMessage record) {
    Map<String, String> attributes = record.getAttributes();
    return new StepDelivery(
        record.getMessageId(),
        record.getBody(),
        receiveCount(attribute(attributes, "ApproximateReceiveCount")),
        sentAtMillis(attribute(attributes, "SentTimestamp")),
        attribute(attributes, "AWSTraceHeader"));
  }

  private static String attribute(Map<String, String> attributes, String name) {
    return attributes == null ? null : attributes.get(name);
  }

  /** The 1-based delivery attempt ({@code ApproximateReceiveCount}); 1 if absent or unreadable. */
  static int receiveCount(String count) {
    try {
      return count == null ? 1 : Math.max(1, Integer.parseInt(count.trim()));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  /** When SQS received the message ({@code SentTimestamp}, epoch ms), or null if unknown. */
  static Long sentAtMillis(String sent) {
    try {
      return sent == null ? null : Long.parseLong(sent.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * The invocation's remaining time in milliseconds, or {@link Long#MAX_VALUE} when the runtime
   * sent no plausible deadline (none, not positive, or above the 900 000 ms maximum function
   * timeout). Read once per record.
   */
  private static long remainingMillis(Context context) {
    if (context == null) {
      return Long.MAX_VALUE;
    }
    int remaining = context.getRemainingTimeInMillis();
    boolean known = remaining > 0 && remaining <= StepWorker.MAX_LAMBDA_TIMEOUT_MILLIS;
    return known ? remaining : Long.MAX_VALUE;
  }
}
