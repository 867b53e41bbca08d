package dev.derive.coordinator.dispatch;

import dev.derive.protocol.message.StepMessage;

/**
 * The seam to the capability queues: sends a step to the worker of its capability. {@link
 * SqsStepDispatcher} is the SQS implementation.
 */
public interface StepDispatcher {

  /**
   * Sends {@code step} to its capability's queue.
   *
   * @throws DispatchFailedException if the message could not be sent (retryable)
   */
  void dispatch(StepMessage step);
}
