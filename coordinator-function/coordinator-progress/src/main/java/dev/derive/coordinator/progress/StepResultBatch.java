package dev.derive.coordinator.progress;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.derive.coordinator.claim.ClaimCheck;
import dev.derive.coordinator.lifecycle.JobLifecycle;
import dev.derive.coordinator.lifecycle.ProgressOutcome;
import dev.derive.protocol.message.MalformedMessageException;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import dev.derive.protocol.telemetry.Correlation;
import dev.derive.protocol.telemetry.EmbeddedMetrics;
import dev.derive.protocol.telemetry.Metric;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Applies each message of an SQS batch through the core {@link JobLifecycle}. The batch comes from
 * one of the progress function's event source mappings:
 *
 * <ul>
 *   <li>the step-results queue: a {@link StepResult} (started or finished) to apply, or a {@link
 *       ClaimCheck} (message attribute {@value ClaimCheck#MESSAGE_KIND_ATTRIBUTE}) of a claim that
 *       had sent no step when a callback was stored on it, which claims the job again if its
 *       claimer died;
 *   <li>a capability's dead-letter queue: a {@link StepMessage} that exhausted its deliveries,
 *       which fails its job;
 *   <li>the step-results dead-letter queue: a {@link StepResult} that could not be applied, which
 *       fails its job.
 * </ul>
 *
 * A record comes from a dead-letter queue when its {@code eventSourceARN} names a queue ending in
 * {@value #DEAD_LETTER_SUFFIX} ({@code template.yaml} names every dead-letter queue so). A
 * malformed message can never succeed, so it is logged and dropped (acknowledged); a message of a
 * kind this version does not know (a newer sender's, while a deploy updates functions one by one)
 * is delivered again, and dropped only from a dead-letter queue; a message that fails for any other
 * reason (DynamoDB or SQS errors, throttling) is reported as a batch item failure, so SQS delivers
 * it again and, after {@code maxReceiveCount}, moves it on.
 */
@ApplicationScoped
public class StepResultBatch {
  /** The suffix of every dead-letter queue's name in {@code template.yaml}. */
  static final String DEAD_LETTER_SUFFIX = "-dlq";

  private static final Logger LOG = Logger.getLogger(StepResultBatch.class);

  private final JobLifecycle lifecycle;
  private final int stepMaxReceives;
  private final EmbeddedMetrics metrics = EmbeddedMetrics.standardOutput();

  /**
   * @param config the capability queues' {@code maxReceiveCount} ({@code STEP_MAX_RECEIVE_COUNT}; 0
   *     when unknown), for the dead-lettered step's error
   */
  StepResultBatch(JobLifecycle lifecycle, dev.derive.coordinator.config.CoordinatorConfig config) {
    this.lifecycle = lifecycle;
    this.stepMaxReceives = config.leases().stepMaxReceives();
  }

  /** Processes every message; returns the ids of those to be delivered again. */
  public SQSBatchResponse process(SQSEvent event) {
    return process(event, null);
  }

  /**
   * Processes every message of the invocation {@code requestId}, each log line naming the job,
   * step, execution and trace id of the message it concerns; returns the ids of those to be
   * delivered again.
   */
  public SQSBatchResponse process(SQSEvent event, String requestId) {
    Correlation.invocation(requestId);
    return PartialBatch.process(
        event,
        PartialBatch.redeliveredOnException(
            LOG,
            "message",
            message -> {
              Correlation.put(
                  Correlation.XRAY_TRACE,
                  message.getAttributes() == null
                      ? null
                      : message.getAttributes().get("AWSTraceHeader"));
              ProgressOutcome outcome = apply(message);
              if (outcome != null) {
                LOG.infof("message %s: %s", message.getMessageId(), outcome);
              }
            }));
  }

  /** Applies one message; {@code null} when it was malformed and dropped. */
  private ProgressOutcome apply(SQSEvent.SQSMessage message) {
    String arn = message.getEventSourceArn();
    boolean deadLetter = arn != null && arn.endsWith(DEAD_LETTER_SUFFIX);
    String kind = messageKind(message);
    if (kind != null && !ClaimCheck.KIND.equals(kind)) {
      // a kind of a newer sender, during a deploy: handed back until the function that knows it
      // takes over; in a dead-letter queue it has had that time (and would come back for 14 days)
      if (deadLetter) {
        LOG.errorf("dropping message %s of unknown kind %s", message.getMessageId(), kind);
        return null;
      }
      throw new IllegalStateException(
          "message kind " + kind + " is newer than this function: delivered again");
    }
    if (kind != null) { // a claim check, from the step-results queue or, once more, its DLQ
      ClaimCheck check = decode(message, ClaimCheck.class);
      if (check == null) {
        return null;
      }
      Correlation.put(Correlation.JOB_ID, check.jobId());
      Correlation.put(Correlation.EXECUTION_ID, check.executionId());
      return lifecycle.checkClaim(check);
    }
    if (!deadLetter) {
      StepResult result = decode(message, StepResult.class);
      if (result == null) {
        return null;
      }
      correlate(result);
      return lifecycle.apply(result);
    }
    StepMessage step;
    try {
      step = MessageCodec.decode(message.getBody(), StepMessage.class);
    } catch (MalformedMessageException notAStepMessage) {
      step = null; // the step-results dead-letter queue holds step results
    }
    if (step != null) {
      Correlation.job(
          step.jobId(), step.stepIndex(), step.capability(), step.executionId(), step.traceId());
      deadLettered(step.capability());
      return lifecycle.deadLettered(step, stepMaxReceives);
    }
    StepResult result = decode(message, StepResult.class);
    if (result == null) {
      return null;
    }
    correlate(result);
    deadLettered(result.capability());
    return lifecycle.resultDeadLettered(result);
  }

  /**
   * The message's kind, its attribute {@value ClaimCheck#MESSAGE_KIND_ATTRIBUTE}: {@value
   * ClaimCheck#KIND}, another kind of a newer sender, or {@code null} for a step result or step
   * message (which carry none).
   */
  private static String messageKind(SQSEvent.SQSMessage message) {
    Map<String, SQSEvent.MessageAttribute> attributes = message.getMessageAttributes();
    SQSEvent.MessageAttribute kind =
        attributes == null ? null : attributes.get(ClaimCheck.MESSAGE_KIND_ATTRIBUTE);
    return kind == null ? null : kind.getStringValue();
  }

  private static void correlate(StepResult result) {
    Correlation.job(
        result.jobId(),
        result.stepIndex(),
        result.capability(),
        result.executionId(),
        result.traceId());
  }

  /** Counts a step message or step result taken from a dead-letter queue ({@link Metric}). */
  private void deadLettered(String capability) {
    LOG.warn("step dead-lettered");
    metrics.write(
        EmbeddedMetrics.event()
            .value(Metric.DEAD_LETTERED_STEPS, 1)
            .dimension(Metric.Dimension.CAPABILITY, capability));
  }

  private static <T> T decode(SQSEvent.SQSMessage message, Class<T> type) {
    try {
      return MessageCodec.decode(message.getBody(), type);
    } catch (MalformedMessageException e) {
      LOG.errorf(
          "dropping malformed %s %s: %s",
          type.getSimpleName(), message.getMessageId(), e.getMessage());
      return null;
    }
  }
}
