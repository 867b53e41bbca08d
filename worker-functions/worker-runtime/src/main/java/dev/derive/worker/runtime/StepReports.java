package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepResult;
import dev.derive.worker.runtime.report.StepResultPublisher;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * Sends a delivery's step results to the coordinator (stamped with the delivery attempt they come
 * from) and writes the delivery's one {@link StepLog} line. A result that must be sent and cannot
 * be hands the delivery back to the queue ({@link StepOutcome#RETRY}); the start report alone is
 * best effort.
 */
final class StepReports {
  private static final System.Logger LOG = System.getLogger(StepReports.class.getName());

  private final StepResultPublisher publisher;
  private final StepLog stepLog;
  private final Clock clock;
  private final long startReportDelayMillis;

  /**
   * @param startReportDelayMillis how long a step runs before its start report is sent ({@link
   *     WorkerSettings#startReportDelayMillis}; 0: at once)
   */
  StepReports(
      StepResultPublisher publisher, StepLog stepLog, Clock clock, long startReportDelayMillis) {
    this.publisher = publisher;
    this.stepLog = stepLog;
    this.clock = clock;
    this.startReportDelayMillis = startReportDelayMillis;
  }

  /** Now, epoch milliseconds, for the results' timestamps. */
  long nowMillis() {
    return clock.millis();
  }

  /**
   * Tells the coordinator the step started (so the job reads RUNNING with this attempt) once it has
   * run for the start report delay, counted from the delivery's start; not at all when it ends
   * sooner, since its result carries the same attempt and start time (the record a start report
   * would have written is then never seen, and a progress invocation is saved). Best effort: if the
   * report cannot be sent the step goes on, and its final result still counts. It runs on the
   * {@link OutputCheck}'s thread, beside the step; every final result waits for that thread first
   * ({@link #awaitOutputCheck}), so the two are sent in order and none outlives the invocation.
   */
  void reportStarted(StepAttempt attempt) {
    if (startReportDelayMillis > 0 && endsBeforeItsStartReport(attempt)) {
      return;
    }
    try {
      publish(StepResult.started(attempt.step, attempt.startedAtMillis), attempt);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "could not report the start of step " + attempt.name() + "; running it anyway",
          e);
    }
  }

  /** Waits until the start report is due; true when the step ended first (or meanwhile). */
  private boolean endsBeforeItsStartReport(StepAttempt attempt) {
    long dueInMillis = startReportDelayMillis - StepAttempt.elapsedMillis(attempt.startedNanos);
    try {
      return dueInMillis > 0
          ? attempt.ended.await(dueInMillis, TimeUnit.MILLISECONDS)
          : attempt.ended.getCount() == 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /**
   * Marks {@code attempt}'s step ended (a start report not yet due is dropped) and waits until its
   * output check and start report, if begun, are done: the report sent or given up (the S3 and SQS
   * clients' own timeouts bound both). Lambda freezes an instance when its handler returns, so a
   * send still in flight then would be cut off or finish in a later invocation.
   */
  void awaitOutputCheck(StepAttempt attempt) {
    attempt.ended.countDown();
    Thread check = attempt.outputCheck;
    if (check == null) {
      return;
    }
    boolean interrupted = false;
    while (true) {
      try {
        check.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Publishes the success of a step whose output of {@code outputBytes} exists, remembering it
   * first: if the publish fails on the last delivery, the success is what is sent again ({@link
   * #successAgain}), never a failure of a step whose output exists.
   *
   * @param reused whether the output existed before this delivery
   * @throws RuntimeException if the result cannot be sent
   */
  void success(StepAttempt attempt, long outputBytes, boolean reused) {
    attempt.outputBytes = outputBytes;
    attempt.success =
        StepResult.success(
            attempt.step, outputBytes, attempt.startedAtMillis, clock.millis(), reused);
    attempt.successOutcome = reused ? StepOutcome.REUSED : StepOutcome.SUCCEEDED;
    publish(attempt.success, attempt);
  }

  /**
   * Reports the success of a step whose output of {@code outputBytes} bytes is in the bucket
   * although the step failed after writing it, and logs it; hands the delivery back if the report
   * cannot be sent.
   */
  StepOutcome successAfterAll(StepAttempt attempt, long outputBytes) {
    attempt.outputBytes = outputBytes;
    attempt.success =
        StepResult.success(
            attempt.step, outputBytes, attempt.startedAtMillis, clock.millis(), false);
    attempt.successOutcome = StepOutcome.SUCCEEDED;
    return successAgain(attempt);
  }

  /** Sends the remembered success once more and logs it; hands the delivery back if it fails. */
  StepOutcome successAgain(StepAttempt attempt) {
    return sendOrHandBack(
        attempt,
        attempt.success,
        "could not report the success of step ",
        attempt.successOutcome,
        null,
        null);
  }

  /**
   * Reports {@code error} as the step's FAILED result and logs the delivery as FAILED with {@code
   * logType} and {@code logDetail}; hands the delivery back (RETRY) if the report cannot be sent.
   *
   * @param unsent the start of the warning logged when it cannot, followed by the step's name
   */
  StepOutcome failure(
      StepAttempt attempt, StepError error, String unsent, String logType, String logDetail) {
    StepResult result =
        StepResult.failure(attempt.step, error, attempt.startedAtMillis, clock.millis());
    return sendOrHandBack(attempt, result, unsent, StepOutcome.FAILED, logType, logDetail);
  }

  /** Writes the delivery's log line. */
  void log(StepAttempt attempt, StepOutcome outcome, String errorType, String detail) {
    stepLog.write(attempt.entry(outcome, errorType, detail));
  }

  /**
   * Sends {@code result} and logs {@code sent} with {@code errorType} and {@code detail}; if it
   * cannot be sent, logs a RETRY naming the cause instead and returns it: SQS redelivers (on the
   * last delivery the dead-letter queue's consumer fails the job).
   */
  private StepOutcome sendOrHandBack(
      StepAttempt attempt,
      StepResult result,
      String unsent,
      StepOutcome sent,
      String errorType,
      String detail) {
    try {
      publish(result, attempt);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, unsent + attempt.name(), e);
      log(attempt, StepOutcome.RETRY, e.getClass().getSimpleName(), e.getMessage());
      return StepOutcome.RETRY;
    }
    log(attempt, sent, errorType, detail);
    return sent;
  }

  private void publish(StepResult result, StepAttempt attempt) {
    if (result.report() != StepResult.Report.STARTED) {
      awaitOutputCheck(attempt);
    }
    publisher.publish(result.withAttempt(attempt.attempt()));
  }
}
