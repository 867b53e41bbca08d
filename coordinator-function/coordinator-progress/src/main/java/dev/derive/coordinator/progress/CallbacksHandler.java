package dev.derive.coordinator.progress;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Entry point of the callback function ({@code QUARKUS_LAMBDA_HANDLER=callbacks}): a batch from the
 * callback queue, each message one signed POST to make, answered with a partial batch response. It
 * shares the progress function's artifact, as the upload-events function does.
 */
@Named(CallbacksHandler.NAME)
public class CallbacksHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  /** The handler name {@code QUARKUS_LAMBDA_HANDLER} selects. */
  public static final String NAME = "callbacks";

  @Inject CallbackBatch batch;

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    return batch.process(event, context == null ? null : context.getAwsRequestId());
  }
}
