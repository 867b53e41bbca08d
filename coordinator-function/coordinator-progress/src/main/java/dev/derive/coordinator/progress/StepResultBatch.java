package dev.derive.coordinator.progress;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.derive.coordinator.claim.ClaimCheck;
import dev.derive.coordinator.lifecycle.JobProgress;
import dev.derive.coordinator.lifecycle.ProgressOutcome;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import dev.derive.protocol.telemetry.Correlation;
import dev.derive.protocol.telemetry.EmbeddedMetrics;
import dev.derive.protocol.telemetry.Metric;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Applies each message of an SQS batch through the core {@link JobProgress}. The batch comes from
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

  private static final System.Logger LOG = System.getLogger(StepResultBatch.class.getName());

  private final JobProgress lifecycle;
  private final int stepMaxReceives;
  private final EmbeddedMetrics metrics = EmbeddedMetrics.standardOutput();

  /**
   * @param config the capability queues' {@code maxReceiveCount} ({@code STEP_MAX_RECEIVE_COUNT}; 0
   *     when unknown), for the dead-lettered step's error
   */
  StepResultBatch(JobProgress lifecycle, dev.derive.coordinator.config.CoordinatorConfig config) {
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
                LOG.log(
                    System.Logger.Level.INFO,
                    () -> "message %s: %s".formatted(message.getMessageId(), outcome));
              }
            }));
  }

  /** Applies one message; {@code null} when it was malformed and dropped. */
  private ProgressOutcome apply(SQSEvent.SQSMessage message) {
    return switch (Envelope.open(message, DEAD_LETTER_SUFFIX)) {
      case Envelope.OfNewerKind newer -> {
        // a kind of a newer sender, during a deploy: handed back until the function that knows it
        // takes over; in a dead-letter queue it has had that time (and would come back for 14 days)
        if (newer.deadLettered()) {
          LOG.log(
              System.Logger.Level.ERROR,
              () ->
                  "dropping message %s of unknown kind %s"
                      .formatted(message.getMessageId(), newer.kind()));
          yield null;
        }
        throw new IllegalStateException(
            "message kind " + newer.kind() + " is newer than this function: delivered again");
      }
      case Envelope.Malformed malformed -> {
        LOG.log(
            System.Logger.Level.ERROR,
            () ->
                "dropping malformed %s %s: %s"
                    .formatted(malformed.kind(), message.getMessageId(), malformed.why()));
        yield null;
      }
      case Envelope.OfClaimCheck(ClaimCheck check) -> {
        // from the step-results queue or, once more, its dead-letter queue
        Correlation.put(Correlation.JOB_ID, check.jobId());
        Correlation.put(Correlation.EXECUTION_ID, check.executionId());
        yield lifecycle.checkClaim(check);
      }
      case Envelope.OfStepMessage(StepMessage step) -> {
        Correlation.job(
            step.jobId(), step.stepIndex(), step.capability(), step.executionId(), step.traceId());
        deadLettered(step.capability());
        yield lifecycle.deadLettered(step, stepMaxReceives);
      }
      case Envelope.OfStepResult(StepResult result, boolean deadLettered) -> {
        correlate(result);
        if (!deadLettered) {
          yield lifecycle.apply(result);
        }
        deadLettered(result.capability());
        yield lifecycle.resultDeadLettered(result);
      }
    };
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
    LOG.log(System.Logger.Level.WARNING, "step dead-lettered");
    metrics.write(
        EmbeddedMetrics.event()
            .value(Metric.DEAD_LETTERED_STEPS, 1)
            .dimension(Metric.Dimension.CAPABILITY, capability));
  }
}
