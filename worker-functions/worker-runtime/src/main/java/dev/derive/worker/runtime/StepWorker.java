package dev.derive.worker.runtime;

import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.storage.ObjectStore;
import dev.derive.worker.runtime.report.StepResultPublisher;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A worker's core: runs a batch of step deliveries with a {@link StepBatch} and says which to hand
 * back for redelivery, in Derive's own types. The Lambda edge ({@code
 * dev.derive.worker.runtime.lambda.StepBatchProcessor}) turns SQS events into {@link StepDelivery}s
 * and its answer into a partial batch response.
 */
public final class StepWorker {
  /** The longest timeout a Lambda function can have: 15 minutes (AWS Lambda quotas). */
  public static final int MAX_LAMBDA_TIMEOUT_MILLIS = 900_000;

  private final StepBatch batch;
  private final WorkerHealth health;

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
    StepRunner runner =
        new StepRunner(
            declaration,
            transformer,
            store,
            publisher,
            settings,
            stepLog,
            Objects.requireNonNull(clock),
            health);
    this.batch = new StepBatch(runner, settings.deadlineMarginMillis(), health, processExit);
    // init: a worker process killed mid-step (out of memory, timeout) left its step folder behind
    StepDirectories.sweepStale(settings.tempDirectory(), clock.instant());
  }

  /**
   * Runs {@code deliveries} in order.
   *
   * @param remainingMillis the invocation's remaining time in milliseconds, read once per delivery
   *     ({@link Long#MAX_VALUE} for no deadline)
   * @return the message ids to redeliver (never {@code null})
   */
  public List<String> process(List<StepDelivery> deliveries, LongSupplier remainingMillis) {
    return batch.run(deliveries, remainingMillis);
  }

  /**
   * Why this process can no longer be trusted and is being replaced (it starts no step), or {@code
   * null} while it is healthy.
   */
  public String poisonedBy() {
    return health.poisonedBy();
  }
}
