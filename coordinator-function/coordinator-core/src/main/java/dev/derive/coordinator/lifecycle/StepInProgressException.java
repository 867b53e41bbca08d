package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.CoordinatorException;

/**
 * Thrown for a step result whose next step another delivery of the same result is sending right now
 * (two copies processed at the same time): the message is to be delivered again later, when the
 * step is either queued (the copy is then ignored) or, its sender having died, sent by it. AWS
 * Powertools' idempotency utility answers a duplicate of a record still in progress the same way
 * ({@code IdempotencyAlreadyInProgressError}, a batch item failure).
 */
public final class StepInProgressException extends CoordinatorException {
  /** The error kind. */
  public static final String KIND = "step-in-progress";

  StepInProgressException(String jobId, int stepIndex) {
    super(
        KIND,
        "step "
            + (stepIndex + 1)
            + " of job "
            + jobId
            + " is being sent by another delivery of the same result; deliver this one again later");
  }
}
