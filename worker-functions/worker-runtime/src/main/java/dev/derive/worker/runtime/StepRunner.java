package dev.derive.worker.runtime;

import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.MalformedMessageException;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.telemetry.Correlation;
import dev.derive.storage.ObjectStore;
import dev.derive.worker.runtime.report.StepResultPublisher;
import java.time.Clock;

/**
 * Runs one {@link StepDelivery} through its step: decodes the message (a malformed one is dropped:
 * it can never succeed and names no job to report to), puts the step's correlation fields on the
 * thread's log lines, has the {@link StepExecutor} do the work and the {@link StepFailures} end
 * whatever it threw. Every delivery ends with exactly one {@link StepLog} line and a {@link
 * StepOutcome} saying whether the queue should delete the message.
 */
final class StepRunner {
  private static final System.Logger LOG = System.getLogger(StepRunner.class.getName());

  private final StepExecutor executor;
  private final StepFailures failures;
  private final StepLog stepLog;
  private final Clock clock;

  StepRunner(
      CapabilityDescriptor declaration,
      StepTransformer transformer,
      ObjectStore store,
      StepResultPublisher publisher,
      WorkerSettings settings,
      StepLog stepLog,
      Clock clock,
      WorkerHealth health) {
    StepReports reports = new StepReports(publisher, stepLog, clock);
    this.executor =
        new StepExecutor(
            declaration,
            transformer,
            store,
            settings,
            reports,
            new StepDeadline(health, settings.deadlineMarginMillis()),
            publisher);
    this.failures = new StepFailures(reports, settings, health, store);
    this.stepLog = stepLog;
    this.clock = clock;
  }

  /**
   * Handles {@code delivery} within {@code budget} and says whether the queue should delete it.
   *
   * @param budget how long download and transform may take, counted from now, and what an overrun
   *     means
   */
  StepOutcome run(StepDelivery delivery, StepBudget budget) {
    long startedNanos = System.nanoTime();
    long startedAtMillis = clock.millis();
    StepMessage step;
    try {
      step = MessageCodec.decode(delivery.body(), StepMessage.class);
    } catch (MalformedMessageException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "dropping malformed step message " + delivery.messageId(),
          e);
      stepLog.write(
          StepLog.Entry.undecodable(
              delivery.messageId(),
              StepAttempt.elapsedMillis(startedNanos),
              StepOutcome.FAILED,
              StepErrorTypes.INVALID_STEP,
              e.getMessage()));
      return StepOutcome.FAILED;
    }
    StepAttempt attempt = begin(delivery, step, budget, startedNanos, startedAtMillis);
    try {
      StepProgress done = executor.execute(attempt);
      stepLog.write(attempt.entry(done, done.successOutcome(), null, null));
      return done.successOutcome();
    } catch (StepFailedException e) {
      return failures.failed(attempt, e.progress(), e.getCause());
    }
  }

  /**
   * Hands {@code delivery} back to the queue without starting it, logging it as a retry with {@code
   * errorType} and {@code logDetail}; on its last delivery reports it FAILED instead, with the
   * retryable {@code errorType} and {@code cause} (a human sentence) as the last error.
   */
  StepOutcome handBackUnstarted(
      StepDelivery delivery, String errorType, String logDetail, String cause) {
    long startedNanos = System.nanoTime();
    StepMessage step;
    try {
      step = MessageCodec.decode(delivery.body(), StepMessage.class);
    } catch (MalformedMessageException e) {
      // still handed back: the next delivery drops it
      stepLog.write(
          StepLog.Entry.undecodable(
              delivery.messageId(), 0, StepOutcome.RETRY, errorType, logDetail));
      return StepOutcome.RETRY;
    }
    StepAttempt attempt = begin(delivery, step, StepBudget.UNLIMITED, startedNanos, clock.millis());
    return failures.unstarted(attempt, errorType, logDetail, cause);
  }

  /**
   * Starts the attempt: puts the step's correlation fields (and the X-Ray trace header the message
   * carried) on this thread's log lines until the batch clears them, and records the pick-up: the
   * time the message spent in its queue and its delivery.
   */
  private StepAttempt begin(
      StepDelivery delivery,
      StepMessage step,
      StepBudget budget,
      long startedNanos,
      long startedAtMillis) {
    Correlation.job(
        step.jobId(), step.stepIndex(), step.capability(), step.executionId(), step.traceId());
    Correlation.put(Correlation.XRAY_TRACE, delivery.traceHeader());
    stepLog.pickedUp(
        step.capability(), delivery.queueAgeMillis(startedAtMillis), delivery.attempt());
    return new StepAttempt(delivery, step, budget, startedNanos, startedAtMillis);
  }
}
