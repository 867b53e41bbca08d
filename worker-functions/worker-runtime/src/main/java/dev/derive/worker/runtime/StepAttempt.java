package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepMessage;
import java.util.concurrent.TimeUnit;

/**
 * One delivery of a decoded step, fixed when it starts: the delivery, its step, its budget and when
 * it started. Immutable, so the caller's thread, the step's thread ({@link StepDeadline}) and the
 * output check's ({@link OutputCheck}) share it freely; what the delivery produces is a {@link
 * StepProgress}, handed back by value.
 *
 * @param startedNanos {@link System#nanoTime} at the start, for the duration and the deadline
 * @param startedAtMillis wall-clock start, epoch milliseconds, for the step results
 */
record StepAttempt(
    StepDelivery delivery,
    StepMessage step,
    StepBudget budget,
    long startedNanos,
    long startedAtMillis) {

  /** When download and transform must have finished ({@link System#nanoTime}); MAX: never. */
  long deadlineNanos() {
    return budget.millis() >= Long.MAX_VALUE / 1_000_000
        ? Long.MAX_VALUE
        : startedNanos + TimeUnit.MILLISECONDS.toNanos(budget.millis());
  }

  /** The 1-based delivery attempt. */
  int attempt() {
    return delivery.attempt();
  }

  /** The step's name in log messages, e.g. {@code 3f2a…#1}. */
  String name() {
    return step.jobId() + "#" + step.stepIndex();
  }

  /** The step's name with its capability, e.g. {@code 3f2a…#1 (image)}. */
  String nameWithCapability() {
    return name() + " (" + step.capability() + ")";
  }

  /** Milliseconds since the attempt started. */
  long elapsedMillis() {
    return elapsedMillis(startedNanos);
  }

  /** The delivery's log line with what it produced, ending with {@code outcome}. */
  StepLog.Entry entry(StepProgress progress, StepOutcome outcome, String errorType, String detail) {
    return new StepLog.Entry(
        delivery.messageId(),
        step.jobId(),
        step.stepIndex(),
        step.capability(),
        step.traceId(),
        progress.inputBytes(),
        progress.outputBytes(),
        elapsedMillis(),
        outcome,
        errorType,
        detail,
        step.executionId(),
        delivery.attempt());
  }

  static long elapsedMillis(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1_000_000;
  }
}
