package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What is known about one delivery of a decoded step so far: when it started, its deadline, the
 * bytes read and written and, once the output exists, the success to report. Builds the delivery's
 * {@link StepLog} line.
 */
final class StepAttempt {
  final StepDelivery delivery;
  final StepMessage step;
  final StepBudget budget;

  /** {@link System#nanoTime} at the start, for the duration. */
  final long startedNanos;

  /** Wall-clock start, epoch milliseconds, for the step result. */
  final long startedAtMillis;

  /** When download and transform must have finished ({@link System#nanoTime}); MAX: never. */
  final long deadlineNanos;

  volatile Long inputBytes;
  volatile Long outputBytes;

  /** The success result once the output exists (sent, or about to be), else null. */
  StepResult success;

  StepOutcome successOutcome;

  /** The {@link OutputCheck} thread (a HEAD, then the start report) beside the step, or null. */
  volatile Thread outputCheck;

  /**
   * Counted down when the step has ended ({@link StepReports#awaitOutputCheck}): a start report not
   * yet sent is then not sent at all.
   */
  final CountDownLatch ended = new CountDownLatch(1);

  StepAttempt(
      StepDelivery delivery,
      StepMessage step,
      StepBudget budget,
      long startedNanos,
      long startedAtMillis) {
    this.delivery = delivery;
    this.step = step;
    this.budget = budget;
    this.startedNanos = startedNanos;
    this.startedAtMillis = startedAtMillis;
    this.deadlineNanos =
        budget.millis() >= Long.MAX_VALUE / 1_000_000
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

  /** The delivery's log line, ending with {@code outcome}. */
  StepLog.Entry entry(StepOutcome outcome, String errorType, String detail) {
    return new StepLog.Entry(
        delivery.messageId(),
        step.jobId(),
        step.stepIndex(),
        step.capability(),
        step.traceId(),
        inputBytes,
        outputBytes,
        elapsedMillis(startedNanos),
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
