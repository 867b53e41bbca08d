package dev.derive.worker.runtime;

import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.telemetry.Correlation;
import dev.derive.storage.ObjectStore;
import dev.derive.worker.runtime.report.StepResultPublisher;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A worker's core, in Derive's own types: runs a batch of step deliveries one after another within
 * their invocation's time, each through a {@link StepRunner}, so that one bad delivery never fails
 * its neighbours, and names the deliveries the queue must redeliver. The Lambda edge ({@code
 * dev.derive.worker.runtime.lambda.StepBatchProcessor}) turns SQS events into {@link StepDelivery}s
 * and its answer into a partial batch response.
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
 *       delivery). The caller then ends the process ({@link #exitIfUntrustworthy}).
 * </ul>
 */
public final class StepWorker {
  /** The longest timeout a Lambda function can have: 15 minutes (AWS Lambda quotas). */
  public static final int MAX_LAMBDA_TIMEOUT_MILLIS = 900_000;

  /**
   * A step whose budget is at least this fraction of the invocation's budget had (nearly) all the
   * time an invocation can give; an overrun then fails it with {@code timeout} instead of a retry.
   */
  static final double WHOLE_INVOCATION_FRACTION = 0.8;

  private static final System.Logger LOG = System.getLogger(StepWorker.class.getName());

  private final StepRunner runner;
  private final long deadlineMarginMillis;
  private final WorkerHealth health;
  private final ProcessExit processExit;

  /**
   * A worker logging to standard output, which halts the JVM when it can no longer be trusted
   * ({@link ProcessExit#halting()}).
   *
   * @param declaration the capability's declaration: every step is checked against it before the
   *     transformer sees it ({@link DeclaredStep})
   * @param transformer the capability's transformation
   * @param store where inputs are read and outputs written
   * @param publisher where step results go
   * @param settings limits and the deadline margin
   */
  public StepWorker(
      CapabilityDescriptor declaration,
      StepTransformer transformer,
      ObjectStore store,
      StepResultPublisher publisher,
      WorkerSettings settings) {
    this(declaration, transformer, store, publisher, settings, new StepLog(), Clock.systemUTC());
  }

  /**
   * A worker with an explicit step log and clock (for tests and embedding), which halts the JVM
   * when it can no longer be trusted ({@link ProcessExit#halting()}).
   *
   * @param stepLog where the one line per record goes
   * @param clock source of the {@code startedAtMillis}/{@code finishedAtMillis} timestamps
   */
  public StepWorker(
      CapabilityDescriptor declaration,
      StepTransformer transformer,
      ObjectStore store,
      StepResultPublisher publisher,
      WorkerSettings settings,
      StepLog stepLog,
      Clock clock) {
    this(
        declaration,
        transformer,
        store,
        publisher,
        settings,
        stepLog,
        clock,
        ProcessExit.halting());
  }

  /**
   * A worker with an explicit step log, clock and process exit. Built once per worker process, at
   * init: it deletes the step folders that dead worker processes left in the temp directory ({@link
   * StepDirectories}).
   *
   * @param stepLog where the one line per record goes
   * @param clock source of the {@code startedAtMillis}/{@code finishedAtMillis} timestamps
   * @param processExit what ends the process once it can no longer be trusted
   */
  public StepWorker(
      CapabilityDescriptor declaration,
      StepTransformer transformer,
      ObjectStore store,
      StepResultPublisher publisher,
      WorkerSettings settings,
      StepLog stepLog,
      Clock clock,
      ProcessExit processExit) {
    Objects.requireNonNull(declaration, "declaration");
    Objects.requireNonNull(transformer, "transformer");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(publisher, "publisher");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(stepLog, "stepLog");
    Objects.requireNonNull(processExit, "processExit");
    WorkerHealth health = new WorkerHealth();
    this.health = health;
    this.processExit = processExit;
    this.runner =
        new StepRunner(
            declaration,
            transformer,
            store,
            publisher,
            settings,
            stepLog,
            Objects.requireNonNull(clock),
            health);
    this.deadlineMarginMillis = settings.deadlineMarginMillis();
    // init: a worker process killed mid-step (out of memory, timeout) left its step folder behind
    StepDirectories.sweepStale(settings.tempDirectory(), clock.instant());
  }

  /**
   * Runs {@code deliveries} in order; on a process being replaced, none is started and each is
   * handed back ({@link #process(List, LongSupplier, StepRequeue)} puts them back as fresh copies).
   *
   * @param remainingMillis the invocation's remaining time in milliseconds, read once per delivery
   *     ({@link Long#MAX_VALUE} for no deadline)
   * @return the message ids to redeliver (never {@code null})
   */
  public List<String> process(List<StepDelivery> deliveries, LongSupplier remainingMillis) {
    return process(deliveries, remainingMillis, StepRequeue.NONE);
  }

  /**
   * Runs {@code deliveries} in order; once the process can no longer be trusted, the deliveries it
   * does not start are put back as fresh copies through {@code requeue} (and acknowledged). The
   * caller ends the process afterwards ({@link #exitIfUntrustworthy}).
   *
   * @param remainingMillis the invocation's remaining time in milliseconds, read once per delivery
   *     ({@link Long#MAX_VALUE} for no deadline)
   * @return the message ids to redeliver (never {@code null})
   */
  public List<String> process(
      List<StepDelivery> deliveries, LongSupplier remainingMillis, StepRequeue requeue) {
    Objects.requireNonNull(requeue, "requeue");
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
   * Ends this process now ({@link ProcessExit}) if it can no longer be trusted, so the platform
   * replaces it before it takes another invocation; returns (false) while it is healthy. The caller
   * first settles its batch with the queue: nothing answers it after this.
   */
  public boolean exitIfUntrustworthy() {
    String poisonedBy = health.poisonedBy();
    if (poisonedBy == null) {
      return false;
    }
    processExit.exit(poisonedBy);
    return true;
  }

  /**
   * Why this process can no longer be trusted and is being replaced (it starts no step), or {@code
   * null} while it is healthy.
   */
  public String poisonedBy() {
    return health.poisonedBy();
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
