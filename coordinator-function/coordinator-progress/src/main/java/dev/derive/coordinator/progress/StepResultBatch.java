package dev.derive.coordinator.progress;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.derive.protocol.message.MalformedMessageException;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.StepResult;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Applies each step result of an SQS batch through the core {@link ProgressTracker}. A malformed
 * message can never succeed, so it is logged and dropped (acknowledged); a message that fails for
 * any other reason (DynamoDB or SQS errors, throttling) is reported as a batch item failure, so SQS
 * delivers it again and, after {@code maxReceiveCount}, moves it to the dead-letter queue.
 */
@ApplicationScoped
public class StepResultBatch {
  private static final Logger LOG = Logger.getLogger(StepResultBatch.class);

  private final ProgressTracker tracker;

  StepResultBatch(ProgressTracker tracker) {
    this.tracker = tracker;
  }

  /** Processes every message; returns the ids of those to be delivered again. */
  public SQSBatchResponse process(SQSEvent event) {
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    List<SQSEvent.SQSMessage> records = event.getRecords() == null ? List.of() : event.getRecords();
    for (SQSEvent.SQSMessage message : records) {
      StepResult result;
      try {
        result = MessageCodec.decode(message.getBody(), StepResult.class);
      } catch (MalformedMessageException e) {
        LOG.errorf("dropping malformed step result %s: %s", message.getMessageId(), e.getMessage());
        continue;
      }
      try {
        ProgressOutcome outcome = tracker.apply(result);
        LOG.infof(
            "step result %d of job %s: %s (trace %s)",
            result.stepIndex(), result.jobId(), outcome, result.traceId());
      } catch (RuntimeException e) {
        LOG.warnf(
            e,
            "step result %s of job %s failed; SQS will deliver it again",
            message.getMessageId(),
            result.jobId());
        failures.add(new SQSBatchResponse.BatchItemFailure(message.getMessageId()));
      }
    }
    return new SQSBatchResponse(failures);
  }
}
