package dev.derive.worker.runtime;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse.BatchItemFailure;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.telemetry.Correlation;
import dev.derive.worker.runtime.report.StepResultPublisher;
import dev.derive.worker.runtime.store.ObjectStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The heart of every worker function: takes an SQS batch of step messages and returns a partial
 * batch response (the event source mapping must enable {@code ReportBatchItemFailures}). Records
 * run one after another and one bad record never fails its neighbours:
 *
 * <ul>
 *   <li>succeeded, reused, permanently failed (a FAILED result was reported) or malformed: the
 *       record is processed and SQS deletes it;
 *   <li>a transient failure (SDK or I/O trouble, throttling, 5xx): the record is listed in {@code
 *       batchItemFailures}, SQS redelivers it after its visibility timeout and dead-letters it
 *       after {@code maxReceiveCount} receives;
 *   <li>when no more than {@link WorkerSettings#deadlineMarginMillis()} remain before the Lambda
 *       deadline, the records not yet started are listed in {@code batchItemFailures} untouched (a
 *       context without a plausible deadline imposes none);
 *   <li>a running step may take the remaining time minus that margin; past it the runner stops
 *       waiting, interrupts the step, deletes its temporary files and reports the record, so the
 *       response reaches Lambda before its timeout. A step that started with at least {@link
 *       #WHOLE_INVOCATION_FRACTION} of the invocation's budget (the budget of the batch's first
 *       record) fails with {@code timeout}: a retry would get no more time. A step that started
 *       later, after earlier records used the time, is handed back to SQS for a retry;
 *   <li>on a message's last delivery ({@link WorkerSettings#lastDelivery}) nothing is handed back:
 *       a transient failure is reported as a FAILED result with a retryable {@code worker-failed}
 *       (or {@code timeout}) error naming the deliveries and the last cause;
 *   <li>once a step thread ignored its interrupt or a {@link VirtualMachineError} (out of memory,
 *       stack overflow) escaped a step, the process is no longer trustworthy: the batch's remaining
 *       records (and those of any later batch) are handed back unstarted, and after building the
 *       response the processor asks its {@link ProcessExit} to end the process, so Lambda replaces
 *       it.
 * </ul>
 */
public final class StepBatchProcessor {
  /** The longest timeout a Lambda function can have: 15 minutes (AWS Lambda quotas). */
  static final int MAX_LAMBDA_TIMEOUT_MILLIS = 900_000;

  /**
   * A step whose budget is at least this fraction of the invocation's budget had (nearly) all the
   * time an invocation can give; an overrun then fails it with {@code timeout} instead of a retry.
   */
  static final double WHOLE_INVOCATION_FRACTION = 0.8;

  private final StepRunner runner;
  private final long deadlineMarginMillis;
  private final WorkerHealth health = new WorkerHealth();
  private final ProcessExit processExit;

  /**
   * A processor logging to standard output, which halts the JVM when it can no longer be trusted
   * ({@link ProcessExit#halting()}).
   *
   * @param transformer the capability's transformation
   * @param store where inputs are read and outputs written
   * @param publisher where step results go
   * @param settings limits and the deadline margin
   */
  public StepBatchProcessor(
      StepTransformer transformer,
      ObjectStore store,
      StepResultPublisher publisher,
      WorkerSettings settings) {
    this(transformer, store, publisher, settings, new StepLog(), Clock.systemUTC());
  }

  /**
   * A processor with an explicit step log and clock (for tests and embedding), which halts the JVM
   * when it can no longer be trusted ({@link ProcessExit#halting()}).
   *
   * @param stepLog where the one line per record goes
   * @param clock source of the {@code startedAtMillis}/{@code finishedAtMillis} timestamps
   */
  public StepBatchProcessor(
      StepTransformer transformer,
      ObjectStore store,
      StepResultPublisher publisher,
      WorkerSettings settings,
      StepLog stepLog,
      Clock clock) {
    this(transformer, store, publisher, settings, stepLog, clock, ProcessExit.halting());
  }

  /**
   * A processor with an explicit step log, clock and process exit. Built once per worker process,
   * at init: it deletes the step folders that dead worker processes left in the temp directory
   * ({@link StepDirectories}).
   *
   * @param stepLog where the one line per record goes
   * @param clock source of the {@code startedAtMillis}/{@code finishedAtMillis} timestamps
   * @param processExit what ends the process once it can no longer be trusted
   */
  public StepBatchProcessor(
      StepTransformer transformer,
      ObjectStore store,
      StepResultPublisher publisher,
      WorkerSettings settings,
      StepLog stepLog,
      Clock clock,
      ProcessExit processExit) {
    Objects.requireNonNull(transformer, "transformer");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(publisher, "publisher");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(stepLog, "stepLog");
    this.processExit = Objects.requireNonNull(processExit, "processExit");
    this.runner =
        new StepRunner(
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
   * Processes {@code event}.
   *
   * @param event the SQS batch (may be empty)
   * @param context the Lambda context, used for its deadline; {@code null} means no deadline
   * @return the message ids SQS must redeliver, as a partial batch response (never {@code null})
   */
  public SQSBatchResponse process(SQSEvent event, Context context) {
    List<SQSMessage> records =
        event == null || event.getRecords() == null ? List.of() : event.getRecords();
    Correlation.invocation(context == null ? null : context.getAwsRequestId());
    List<BatchItemFailure> failures = new ArrayList<>();
    long invocationBudget = -1;
    for (SQSMessage record : records) {
      try {
        StepOutcome outcome;
        String poisonedBy = health.poisonedBy();
        long budget = poisonedBy == null ? budgetMillis(context) : 0;
        if (poisonedBy != null) {
          outcome =
              runner.handBackUnstarted(
                  record,
                  StepErrorTypes.WORKER_FAILED,
                  "not started: this worker process is being replaced (" + poisonedBy + ")",
                  "it was not started: its worker process had to be replaced after an earlier step"
                      + " broke it");
        } else if (budget == Long.MAX_VALUE) {
          outcome = runner.run(record, StepBudget.UNLIMITED);
        } else if (budget <= 0) {
          outcome = defer(record);
        } else {
          if (invocationBudget < 0) {
            invocationBudget = budget;
          }
          boolean whole = budget >= WHOLE_INVOCATION_FRACTION * invocationBudget;
          outcome = runner.run(record, new StepBudget(budget, whole));
        }
        if (!outcome.processed()) {
          failures.add(new BatchItemFailure(record.getMessageId()));
        }
      } finally {
        Correlation.clearJob(); // the next record's lines name their own job
      }
    }
    String poisonedBy = health.poisonedBy();
    if (poisonedBy != null) {
      processExit.exitAfterResponse(poisonedBy);
    }
    return new SQSBatchResponse(failures);
  }

  /**
   * The time a record started now may take: the remaining time minus the margin, in milliseconds
   * (zero or negative: do not start it). A remaining time that no Lambda deadline can produce (not
   * positive, or above the 900 000 ms maximum function timeout) means the runtime sent no deadline
   * (e.g. a mock Runtime API without {@code Lambda-Runtime-Deadline-Ms}): then there is no limit
   * and the result is {@link Long#MAX_VALUE}. Reads the context once per record.
   */
  private long budgetMillis(Context context) {
    if (context == null) {
      return Long.MAX_VALUE;
    }
    int remaining = context.getRemainingTimeInMillis();
    boolean known = remaining > 0 && remaining <= MAX_LAMBDA_TIMEOUT_MILLIS;
    return known ? remaining - deadlineMarginMillis : Long.MAX_VALUE;
  }

  /** Hands a record back to SQS without starting it (reported on its last delivery). */
  private StepOutcome defer(SQSMessage record) {
    return runner.handBackUnstarted(
        record,
        StepErrorTypes.TIMEOUT,
        "not started: at most " + deadlineMarginMillis + " ms left before the deadline",
        "it was not started: too little of its invocation's time was left");
  }
}
