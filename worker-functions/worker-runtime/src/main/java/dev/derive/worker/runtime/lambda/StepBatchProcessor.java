package dev.derive.worker.runtime.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse.BatchItemFailure;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import dev.derive.protocol.telemetry.Correlation;
import dev.derive.worker.runtime.QueuedMessage;
import dev.derive.worker.runtime.StepDelivery;
import dev.derive.worker.runtime.StepQueue;
import dev.derive.worker.runtime.StepWorker;
import java.util.ArrayList;
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
 * <p>While the batch runs, a {@link VisibilityHeartbeat} keeps its messages hidden a short time at
 * a time, so a step whose process dies is delivered again within that time. A process that a step
 * left untrustworthy settles its batch with the queue itself (deletes what it processed, makes what
 * it hands back visible at once; those it did not start were put back as fresh copies) and then
 * ends from within the invocation ({@link StepWorker#exitIfUntrustworthy}), so it takes no further
 * invocation (docs/job-lifecycle.md, "Crashes and poison").
 *
 * <p>A context without a plausible deadline (a remaining time that is not positive or above {@link
 * StepWorker#MAX_LAMBDA_TIMEOUT_MILLIS}, e.g. a mock Runtime API without {@code
 * Lambda-Runtime-Deadline-Ms}) imposes none.
 */
public final class StepBatchProcessor {
  private static final System.Logger LOG = System.getLogger(StepBatchProcessor.class.getName());

  private final StepWorker worker;
  private final StepQueue queue;
  private final VisibilityHeartbeat heartbeat;

  /**
   * The SQS edge of {@code worker}, built once per worker process, at init, with no queue access:
   * no heartbeat, no fresh copies, no settling (the queue's own timers apply).
   */
  public StepBatchProcessor(StepWorker worker) {
    this(worker, StepQueue.NONE, VisibilityHeartbeat.NONE);
  }

  /**
   * The SQS edge of {@code worker}.
   *
   * @param queue the worker's own queue: fresh copies of the messages a process being replaced does
   *     not start, and the settling of its batch before it ends
   * @param heartbeat keeps the messages of a batch hidden while it runs
   */
  public StepBatchProcessor(StepWorker worker, StepQueue queue, VisibilityHeartbeat heartbeat) {
    this.worker = Objects.requireNonNull(worker, "worker");
    this.queue = Objects.requireNonNull(queue, "queue");
    this.heartbeat = Objects.requireNonNull(heartbeat, "heartbeat");
  }

  /**
   * Processes {@code event}.
   *
   * @param event the SQS batch (may be empty)
   * @param context the Lambda context, used for its deadline; {@code null} means no deadline
   * @return the message ids SQS must redeliver, as a partial batch response (never {@code null});
   *     on a process that can no longer be trusted, never returns but for a test's exit
   */
  public SQSBatchResponse process(SQSEvent event, Context context) {
    List<SQSMessage> records =
        event == null || event.getRecords() == null ? List.of() : event.getRecords();
    Correlation.invocation(context == null ? null : context.getAwsRequestId());
    List<StepDelivery> deliveries = records.stream().map(StepBatchProcessor::delivery).toList();
    List<QueuedMessage> held = queued(records);
    // no invocation outlasts Lambda's longest timeout: no beat after it (the context's deadline is
    // read once per delivery, by the worker)
    long deadline = System.currentTimeMillis() + StepWorker.MAX_LAMBDA_TIMEOUT_MILLIS;
    List<String> redeliver;
    try (VisibilityHeartbeat.Hold hold = heartbeat.hold(held, deadline)) {
      redeliver = worker.process(deliveries, () -> remainingMillis(context), queue);
    }
    if (worker.poisonedBy() != null) {
      settle(held, redeliver);
      worker.exitIfUntrustworthy();
    }
    return new SQSBatchResponse(redeliver.stream().map(BatchItemFailure::new).toList());
  }

  /**
   * What the event source mapping would do with the batch response, done by the process itself
   * before it ends (the mapping then sees a failed invocation and does nothing): deletes the
   * processed messages and makes those handed back visible again at once, for a fresh process. A
   * message this fails for reappears after the visibility the heartbeat last gave it.
   */
  private void settle(List<QueuedMessage> held, List<String> redeliver) {
    List<QueuedMessage> handedBack =
        held.stream().filter(m -> redeliver.contains(m.messageId())).toList();
    List<QueuedMessage> processed =
        held.stream().filter(m -> !redeliver.contains(m.messageId())).toList();
    try {
      if (!processed.isEmpty()) {
        queue.delete(processed);
      }
      if (!handedBack.isEmpty()) {
        queue.changeVisibility(handedBack, 0);
      }
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "the batch could not be settled before this process ends; its messages reappear after"
              + " their visibility timeout: "
              + e.getMessage());
    }
  }

  /** The records that name their queue and receipt (a test's may name neither). */
  private static List<QueuedMessage> queued(List<SQSMessage> records) {
    List<QueuedMessage> queued = new ArrayList<>();
    for (SQSMessage record : records) {
      if (record.getMessageId() != null
          && record.getEventSourceArn() != null
          && record.getReceiptHandle() != null) {
        queued.add(
            new QueuedMessage(
                record.getMessageId(), record.getEventSourceArn(), record.getReceiptHandle()));
      }
    }
    return queued;
  }

  /** The Derive view of an SQS record. */
  static StepDelivery delivery(SQSMessage record) {
    Map<String, String> attributes = record.getAttributes();
    return new StepDelivery(
        record.getMessageId(),
        record.getBody(),
        receiveCount(attribute(attributes, "ApproximateReceiveCount")),
        sentAtMillis(attribute(attributes, "SentTimestamp")),
        attribute(attributes, "AWSTraceHeader"),
        record.getEventSourceArn());
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
