package dev.derive.worker.runtime.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * The Lambda entry point of every worker function: an SQS batch of steps in, a partial batch
 * response out, through the {@link StepBatchProcessor} that the shared wiring ({@code
 * dev.derive.worker.runtime.cdi.WorkerBeans}) builds around the worker's one {@code
 * StepTransformer} bean. A worker module only declares that transformer; each function is deployed
 * as {@code io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest}, which delegates
 * here by the name {@value #NAME} ({@code quarkus.lambda.handler} in the worker's {@code
 * application.properties}).
 */
@Named(WorkerStepHandler.NAME)
public class WorkerStepHandler implements RequestHandler<SQSEvent, SQSBatchResponse> {
  /** The handler's bean name, the value of every worker's {@code quarkus.lambda.handler}. */
  public static final String NAME = "worker-steps";

  private final StepBatchProcessor processor;

  /**
   * @param processor the batch processor of the worker's capability
   */
  @Inject
  public WorkerStepHandler(StepBatchProcessor processor) {
    this.processor = processor;
  }

  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    return processor.process(event, context);
  }
}
