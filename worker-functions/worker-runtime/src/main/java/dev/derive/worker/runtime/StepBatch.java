package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.telemetry.Correlation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Runs a batch of step deliveries one after another within their invocation's time, so that one bad
 * delivery never fails its neighbours, and names the deliveries the queue must redeliver:
 *
 * <ul>
 *   <li>succeeded, reused, permanently failed (a FAILED result was reported) or malformed: the
 *       delivery is processed and the queue deletes it;
 *   <li>a transient failure (SDK or I/O trouble, throttling, 5xx): the delivery is handed back, the
 *       queue redelivers it after its visibility timeout and dead-letters it after {@code
 *       maxReceiveCount} receives;
 *   <li>when no more than {@link WorkerSettings#deadlineMarginMillis()} remain before the
 *       invocation's deadline, the deliveries not yet started are handed back untouched;
 *   <li>a running step may take the remaining time minus that margin ({@link StepDeadline}). A step
 *       that started with at least {@link #WHOLE_INVOCATION_FRACTION} of the invocation's budget
 *       (the budget of the batch's first delivery) fails with {@code timeout}: a retry would get no
 *       more time. A step that started later, after earlier deliveries used the time, is handed
 *       back for a retry;
 *   <li>on a message's last delivery ({@link WorkerSettings#lastDelivery}) nothing is handed back:
 *       a transient failure is reported as a FAILED result with a retryable {@code worker-failed}
 *       (or {@code timeout}) error naming the deliveries and the last cause ({@link StepFailures});
 *   <li>once a step thread ignored its interrupt or a {@link VirtualMachineError} (out of memory,
 *       stack overflow) escaped a step, the process is no longer trustworthy: the batch's remaining
 *       deliveries (and those of any later batch) are not started but put back on their queue as
 *       fresh copies ({@link StepRequeue}) and acknowledged, so a healthy process runs them at once
 *       with a receive count of 0; one that cannot be put back is handed back (reported on its last
 *       delivery). The caller then ends the process ({@link StepWorker#exitIfUntrustworthy}).
 * </ul>
 */
final class StepBatch {
  private static final System.Logger LOG = System.getLogger(StepBatch.class.getName());

  /**
   * A step whose budget is at least this fraction of the invocation's budget had (nearly) all the
   * time an invocation can give; an overrun then fails it with {@code timeout} instead of a retry.
   */
  static final double WHOLE_INVOCATION_FRACTION = 0.8;

  private final StepRunner runner;
  private final long deadlineMarginMillis;
  private final WorkerHealth health;

  StepBatch(StepRunner runner, long deadlineMarginMillis, WorkerHealth health) {
    this.runner = runner;
    this.deadlineMarginMillis = deadlineMarginMillis;
    this.health = health;
  }

  /**
   * Runs {@code deliveries}.
   *
   * @param remainingMillis the invocation's remaining time in milliseconds, read once before each
   *     delivery; {@link Long#MAX_VALUE} when there is no deadline
   * @param requeue where the deliveries a process being replaced does not start are put back
   * @return the message ids of the deliveries to redeliver, in batch order
   */
  List<String> run(
      List<StepDelivery> deliveries, LongSupplier remainingMillis, StepRequeue requeue) {
    List<String> redeliver = new ArrayList<>();
    long invocationBudget = -1;
    for (StepDelivery delivery : deliveries) {
      try {
        String poisonedBy = health.poisonedBy();
        boolean processed;
        if (poisonedBy != null) {
          // acknowledged once its fresh copy is sent: a healthy process runs that
          processed =
              putBack(delivery, requeue)
                  || runner
                      .handBackUnstarted(
                          delivery,
                          StepErrorTypes.WORKER_FAILED,
                          "not started: this worker process is being replaced (" + poisonedBy + ")",
                          "it was not started: its worker process had to be replaced after an"
                              + " earlier step broke it")
                      .processed();
        } else {
          long budget = budgetMillis(remainingMillis.getAsLong());
          StepOutcome outcome;
          if (budget == Long.MAX_VALUE) {
            outcome = runner.run(delivery, StepBudget.UNLIMITED);
          } else if (budget <= 0) {
            outcome = defer(delivery);
          } else {
            if (invocationBudget < 0) {
              invocationBudget = budget;
            }
            boolean whole = budget >= WHOLE_INVOCATION_FRACTION * invocationBudget;
            outcome = runner.run(delivery, new StepBudget(budget, whole));
          }
          processed = outcome.processed();
        }
        if (!processed) {
          redeliver.add(delivery.messageId());
        }
      } finally {
        Correlation.clearJob(); // the next delivery's lines name their own job
      }
    }
    return redeliver;
  }

  /**
   * Puts a fresh copy of {@code delivery} back on its queue, not started (this process is being
   * replaced); false if it could not be (no queue known, or the send failed).
   */
  private boolean putBack(StepDelivery delivery, StepRequeue requeue) {
    if (delivery.queueArn() == null) {
      return false;
    }
    try {
      requeue.requeue(delivery.queueArn(), delivery.body());
      LOG.log(
          System.Logger.Level.INFO,
          "message "
              + delivery.messageId()
              + " put back as a fresh copy, not started: this process is being replaced");
      return true;
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "message " + delivery.messageId() + " could not be put back: " + e.getMessage());
      return false;
    }
  }

  /**
   * The time a delivery started now may take: the remaining time minus the margin, in milliseconds
   * (zero or negative: do not start it); {@link Long#MAX_VALUE} without a deadline.
   */
  private long budgetMillis(long remainingMillis) {
    return remainingMillis == Long.MAX_VALUE
        ? Long.MAX_VALUE
        : remainingMillis - deadlineMarginMillis;
  }

  /** Hands a delivery back without starting it (reported on its last delivery). */
  private StepOutcome defer(StepDelivery delivery) {
    return runner.handBackUnstarted(
        delivery,
        StepErrorTypes.TIMEOUT,
        "not started: at most " + deadlineMarginMillis + " ms left before the deadline",
        "it was not started: too little of its invocation's time was left");
  }
}
