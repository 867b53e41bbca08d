package dev.derive.worker.text;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.derive.worker.runtime.StepBatchProcessor;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Lambda entry point of the text worker: an SQS batch of text steps in, a partial batch response
 * out. Deployed as {@code io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest},
 * which delegates here (the artifact's only handler).
 */
@Named("text-steps")
public class TextStepHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  private final StepBatchProcessor processor;

  @Inject
  public TextStepHandler(StepBatchProcessor processor) {
    this.processor = processor;
  }

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    return processor.process(event, context);
  }
}
