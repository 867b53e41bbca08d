package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepResult;
import dev.derive.worker.runtime.report.StepResultPublisher;
import java.time.Clock;
import java.util.Map;

/**
 * Sends a delivery's final step result to the coordinator (stamped with the delivery attempt it
 * comes from) and writes the delivery's one {@link StepLog} line. A result that must be sent and
 * cannot be hands the delivery back to the queue ({@link StepOutcome#RETRY}). The start report,
 * best effort, is the {@link OutputCheck}'s; it has ended before any final result is sent.
 */
final class StepReports {
  private static final System.Logger LOG = System.getLogger(StepReports.class.getName());

  private final StepResultPublisher publisher;
  private final StepLog stepLog;
  private final Clock clock;

  StepReports(StepResultPublisher publisher, StepLog stepLog, Clock clock) {
    this.publisher = publisher;
    this.stepLog = stepLog;
    this.clock = clock;
  }

  /**
   * {@code progress} with the success of {@code attempt}'s step, whose output of {@code
   * outputBytes} exists, to be reported: if sending it fails on the last delivery, that success is
   * what is sent again ({@link #successAgain}), never a failure of a step whose output exists.
   *
   * @param reused whether the output existed before this delivery
   * @param summary the step's summary ({@link StepSummary}), or {@code null}
   */
  StepProgress succeeded(
      StepAttempt attempt,
      StepProgress progress,
      long outputBytes,
      boolean reused,
      Map<String, Object> summary) {
    StepResult success =
        StepResult.success(
                attempt.step(), outputBytes, attempt.startedAtMillis(), clock.millis(), reused)
            .withSummary(summary);
    return progress.succeeded(outputBytes, success, reused);
  }

  /**
   * Reports the success of a step whose output of {@code outputBytes} bytes is in the bucket
   * although the step failed after writing it, and logs it; hands the delivery back if the report
   * cannot be sent.
   */
  StepOutcome successAfterAll(StepAttempt attempt, StepProgress progress, long outputBytes) {
    return successAgain(attempt, succeeded(attempt, progress, outputBytes, false, null));
  }

  /** Sends the remembered success once more and logs it; hands the delivery back if it fails. */
  StepOutcome successAgain(StepAttempt attempt, StepProgress progress) {
    return sendOrHandBack(
        attempt,
        progress,
        progress.success(),
        "could not report the success of step ",
        progress.successOutcome(),
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
      StepAttempt attempt,
      StepProgress progress,
      StepError error,
      String unsent,
      String logType,
      String logDetail) {
    StepResult result =
        StepResult.failure(attempt.step(), error, attempt.startedAtMillis(), clock.millis());
    return sendOrHandBack(
        attempt, progress, result, unsent, StepOutcome.FAILED, logType, logDetail);
  }

  /** Writes the delivery's log line. */
  void log(
      StepAttempt attempt,
      StepProgress progress,
      StepOutcome outcome,
      String errorType,
      String detail) {
    stepLog.write(attempt.entry(progress, outcome, errorType, detail));
  }

  /**
   * Sends {@code result} and logs {@code sent} with {@code errorType} and {@code detail}; if it
   * cannot be sent, logs a RETRY naming the cause instead and returns it: SQS redelivers (on the
   * last delivery the dead-letter queue's consumer fails the job).
   */
  private StepOutcome sendOrHandBack(
      StepAttempt attempt,
      StepProgress progress,
      StepResult result,
      String unsent,
      StepOutcome sent,
      String errorType,
      String detail) {
    try {
      publish(attempt, result);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, unsent + attempt.name(), e);
      log(attempt, progress, StepOutcome.RETRY, e.getClass().getSimpleName(), e.getMessage());
      return StepOutcome.RETRY;
    }
    log(attempt, progress, sent, errorType, detail);
    return sent;
  }

  /**
   * Sends {@code attempt}'s final {@code result}, stamped with its delivery attempt.
   *
   * @throws RuntimeException if it cannot be sent
   */
  void publish(StepAttempt attempt, StepResult result) {
    publisher.publish(result.withAttempt(attempt.attempt()));
  }
}
