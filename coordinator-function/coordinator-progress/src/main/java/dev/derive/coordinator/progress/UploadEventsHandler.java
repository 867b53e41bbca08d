package dev.derive.coordinator.progress;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Entry point of the upload-events function ({@code QUARKUS_LAMBDA_HANDLER=uploadEvents}): a batch
 * from the upload-events queue, answered with a partial batch response. It shares the progress
 * function's artifact (docs/derivatives-on-upload.md says why).
 */
@Named(UploadEventsHandler.NAME)
public class UploadEventsHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  /** The handler name {@code QUARKUS_LAMBDA_HANDLER} selects. */
  public static final String NAME = "uploadEvents";

  @Inject UploadEventBatch batch;

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    return batch.process(event);
  }
}
