package dev.derive.coordinator.progress;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Entry point of the coordinator progress function: receives a batch from the step-results queue
 * and answers with a partial batch response (the event source mapping has {@code
 * ReportBatchItemFailures}), so only failed messages return to the queue. The artifact's default
 * handler ({@code quarkus.lambda.handler}).
 */
@Named(StepResultsHandler.NAME)
public class StepResultsHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  /** The handler name {@code QUARKUS_LAMBDA_HANDLER} selects. */
  public static final String NAME = "stepResults";

  @Inject StepResultBatch batch;

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    return batch.process(event, context == null ? null : context.getAwsRequestId());
  }
}
