package dev.derive.worker.runtime.report;

import dev.derive.protocol.message.StepResult;

/**
 * Reports the outcome of a step to the coordinator. {@code
 * dev.derive.worker.runtime.aws.SqsStepResultPublisher} is the AWS implementation (the step-results
 * queue). Delivery is at least once: the coordinator ignores duplicates.
 */
public interface StepResultPublisher {

  /**
   * Publishes {@code result}.
   *
   * @throws ReportNotSentException when it could not be delivered (another implementation may throw
   *     another RuntimeException); the runtime then lets SQS redeliver the step
   */
  void publish(StepResult result);
}
