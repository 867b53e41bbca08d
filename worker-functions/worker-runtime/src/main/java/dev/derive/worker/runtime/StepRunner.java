package dev.derive.worker.runtime;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.MalformedMessageException;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import dev.derive.protocol.telemetry.Correlation;
import dev.derive.worker.runtime.report.StepResultPublisher;
import dev.derive.worker.runtime.store.ObjectChangedException;
import dev.derive.worker.runtime.store.ObjectNotFoundException;
import dev.derive.worker.runtime.store.ObjectStore;
import dev.derive.worker.runtime.store.ObjectTooLargeException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one SQS record through a step: decode, reuse an existing output, report the start, download
 * (pinned to the source's ETag when the step names one), transform, upload, report the end.
 * Classifies every failure as reported (a FAILED result, the message is deleted; retryable or not
 * as {@link StepErrorKinds} says) or transient (SQS redelivers the message), and writes the
 * record's one {@link StepLog} line.
 *
 * <p>Download and transform run on a daemon thread of their own in a fresh per-step directory under
 * the temp directory; the runner waits for them until the step's {@link StepBudget} (counted from
 * the record's start) runs out. Past it the runner interrupts that thread, gives it a short grace
 * to stop, deletes the directory (a thread that ignores the interrupt can no longer create files
 * there) and reports the record: FAILED with {@code timeout} when the step had the whole
 * invocation, else a retry. The upload runs on the runner thread only after the transform finished
 * in time, so a cancelled step never writes its output object. Java cannot stop a thread that
 * ignores interrupts, so such a thread marks the process as no longer trustworthy ({@link
 * WorkerHealth}), as does a {@link VirtualMachineError} (out of memory, stack overflow) escaping a
 * step, even wrapped in a capability's input error: that is the worker's failure, never the
 * input's.
 *
 * <p>A transient failure on the message's last delivery ({@link WorkerSettings#lastDelivery}) is
 * reported instead of handed back, as a retryable {@code worker-failed} (or {@code timeout}) error
 * naming the deliveries and the last cause, so the job fails with a reason rather than waiting on a
 * dead-lettered message.
 */
final class StepRunner {
  private static final System.Logger LOG = System.getLogger(StepRunner.class.getName());

  /** The longest wait for an interrupted step thread to stop before its files are deleted, ms. */
  static final long MAX_CANCEL_GRACE_MILLIS = 1_000;

  private static final AtomicLong THREADS = new AtomicLong();

  private final StepTransformer transformer;
  private final ObjectStore store;
  private final StepResultPublisher publisher;
  private final WorkerSettings settings;
  private final StepLog stepLog;
  private final Clock clock;
  private final WorkerHealth health;

  StepRunner(
      StepTransformer transformer,
      ObjectStore store,
      StepResultPublisher publisher,
      WorkerSettings settings,
      StepLog stepLog,
      Clock clock,
      WorkerHealth health) {
    this.transformer = transformer;
    this.store = store;
    this.publisher = publisher;
    this.settings = settings;
    this.stepLog = stepLog;
    this.clock = clock;
    this.health = health;
  }

  /**
   * Handles {@code record} within {@code budget} and says whether SQS should delete it.
   *
   * @param budget how long download and transform may take, counted from now, and what an overrun
   *     means
   */
  StepOutcome run(SQSMessage record, StepBudget budget) {
    long startedNanos = System.nanoTime();
    long startedAtMillis = clock.millis();
    StepMessage step;
    try {
      step = MessageCodec.decode(record.getBody(), StepMessage.class);
    } catch (MalformedMessageException e) {
      // Can never succeed and names no job to report to: drop it (it still shows in the log).
      LOG.log(
          System.Logger.Level.WARNING,
          "dropping malformed step message " + record.getMessageId(),
          e);
      stepLog.write(
          new StepLog.Entry(
              record.getMessageId(),
              null,
              null,
              null,
              null,
              null,
              null,
              elapsedMillis(startedNanos),
              StepOutcome.FAILED,
              StepErrorTypes.INVALID_STEP,
              e.getMessage()));
      return StepOutcome.FAILED;
    }

    Progress progress = new Progress(receiveCount(record), startedNanos, budget);
    correlate(record, step, startedAtMillis, progress.attempt);
    try {
      StepOutcome outcome = execute(step, startedAtMillis, progress);
      log(record, step, progress, startedNanos, outcome, null, null);
      return outcome;
    } catch (PermanentStepFailure failure) {
      if (FailureDescriptions.virtualMachineError(failure) != null) {
        // e.g. a decoder that wrapped an OutOfMemoryError as corrupt input: the worker's failure
        return workerBroke(record, step, progress, startedNanos, startedAtMillis, failure);
      }
      return report(record, step, progress, startedNanos, startedAtMillis, failure);
    } catch (DeadlineExceededException e) {
      return handBack(
          record,
          step,
          progress,
          startedNanos,
          startedAtMillis,
          e,
          StepErrorTypes.TIMEOUT,
          StepErrorTypes.TIMEOUT);
    } catch (Exception | Error e) {
      if (FailureDescriptions.virtualMachineError(e) != null) {
        return workerBroke(record, step, progress, startedNanos, startedAtMillis, e);
      }
      return handBack(
          record,
          step,
          progress,
          startedNanos,
          startedAtMillis,
          e,
          e.getClass().getSimpleName(),
          StepErrorTypes.WORKER_FAILED);
    }
  }

  /**
   * Hands {@code record} back to SQS without starting it, logging it as a retry with {@code
   * errorType} and {@code logDetail}; on its last delivery reports it FAILED instead, with the
   * retryable {@code errorType} and {@code cause} (a human sentence) as the last error.
   */
  StepOutcome handBackUnstarted(
      SQSMessage record, String errorType, String logDetail, String cause) {
    long startedNanos = System.nanoTime();
    StepMessage step;
    try {
      step = MessageCodec.decode(record.getBody(), StepMessage.class);
    } catch (MalformedMessageException e) {
      // still handed back: the next delivery drops it
      stepLog.write(
          new StepLog.Entry(
              record.getMessageId(),
              null,
              null,
              null,
              null,
              null,
              null,
              0,
              StepOutcome.RETRY,
              errorType,
              logDetail));
      return StepOutcome.RETRY;
    }
    Progress progress = new Progress(receiveCount(record), startedNanos, StepBudget.UNLIMITED);
    correlate(record, step, clock.millis(), progress.attempt);
    if (settings.lastDelivery(progress.attempt)) {
      long now = clock.millis();
      return reportExhausted(record, step, progress, startedNanos, now, errorType, cause);
    }
    log(record, step, progress, startedNanos, StepOutcome.RETRY, errorType, logDetail);
    return StepOutcome.RETRY;
  }

  private StepOutcome execute(StepMessage step, long startedAtMillis, Progress progress)
      throws IOException {
    if (!transformer.capability().equals(step.capability())) {
      throw new PermanentStepFailure(
          StepErrorTypes.INVALID_STEP,
          "step for capability '"
              + step.capability()
              + "' sent to the '"
              + transformer.capability()
              + "' worker");
    }
    OptionalLong existing = store.size(step.output());
    if (existing.isPresent()) {
      // A redelivery, or an identical step of another job: the output is content-addressed.
      progress.outputBytes = existing.getAsLong();
      publishSuccess(
          StepResult.success(step, existing.getAsLong(), startedAtMillis, clock.millis(), true),
          StepOutcome.REUSED,
          progress);
      return StepOutcome.REUSED;
    }
    reportStarted(step, startedAtMillis, progress);

    Path workDirectory = StepDirectories.create(settings.tempDirectory());
    try {
      Path input = Files.createFile(workDirectory.resolve("input.tmp"));
      Path output = Files.createFile(workDirectory.resolve("output.tmp"));
      FutureTask<Void> work =
          new FutureTask<>(
              () -> {
                progress.inputBytes = download(step, input);
                transformer.transform(step, input, output);
                Files.deleteIfExists(input);
                return null;
              });
      Thread thread =
          Thread.ofPlatform().daemon().name("derive-step-" + THREADS.incrementAndGet()).start(work);
      awaitWithin(work, thread, step, progress);
      progress.outputBytes = Files.size(output);
      store.upload(output, step.output(), contentType(step));
    } finally {
      StepDirectories.deleteTree(workDirectory);
    }
    publishSuccess(
        StepResult.success(step, progress.outputBytes, startedAtMillis, clock.millis(), false),
        StepOutcome.SUCCEEDED,
        progress);
    return StepOutcome.SUCCEEDED;
  }

  /**
   * Publishes the success {@code result}, remembering it first: if the publish fails on the last
   * delivery, the success is what is sent again, never a failure of a step whose output exists.
   */
  private void publishSuccess(StepResult result, StepOutcome outcome, Progress progress) {
    progress.success = result;
    progress.successOutcome = outcome;
    publish(result, progress);
  }

  /**
   * Tells the coordinator the step started (so the job reads RUNNING with this attempt). Best
   * effort: if the report cannot be sent the step goes on, and its final result still counts.
   */
  private void reportStarted(StepMessage step, long startedAtMillis, Progress progress) {
    try {
      publish(StepResult.started(step, startedAtMillis), progress);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "could not report the start of step "
              + step.jobId()
              + "#"
              + step.stepIndex()
              + "; running it anyway",
          e);
    }
  }

  /**
   * Waits for {@code work} until the step's budget runs out; on overrun interrupts it, waits up to
   * the grace for {@code thread} to stop (marking the process untrustworthy if it does not), and
   * throws.
   *
   * @throws PermanentStepFailure with {@code timeout} on overrun of a whole-invocation budget, or
   *     what the work threw
   * @throws DeadlineExceededException on overrun of a partial budget
   */
  private void awaitWithin(
      FutureTask<Void> work, Thread thread, StepMessage step, Progress progress)
      throws IOException {
    StepBudget budget = progress.budget;
    try {
      if (progress.deadlineNanos == Long.MAX_VALUE) {
        work.get();
      } else {
        work.get(Math.max(0, progress.deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
    } catch (TimeoutException e) {
      work.cancel(true);
      if (!awaitStop(thread)) {
        health.poison(
            "step "
                + step.jobId()
                + "#"
                + step.stepIndex()
                + " ("
                + step.capability()
                + ") ignored the interrupt after its time ran out and is still running");
      }
      if (budget.wholeInvocation()) {
        throw new PermanentStepFailure(
            StepErrorTypes.TIMEOUT,
            "did not finish within the function's time limit; the step was stopped after "
                + budget.millis()
                + " ms (the invocation's time minus a "
                + settings.deadlineMarginMillis()
                + " ms margin)",
            e);
      }
      throw new DeadlineExceededException(
          "stopped after "
              + budget.millis()
              + " ms, the time left in an invocation whose earlier records used the rest;"
              + " handed back for a retry");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IOException(cause);
    } catch (InterruptedException e) {
      work.cancel(true);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the step");
    }
  }

  /** Waits up to the grace for {@code thread} to end; whether it did. */
  private boolean awaitStop(Thread thread) {
    long grace = Math.min(MAX_CANCEL_GRACE_MILLIS, settings.deadlineMarginMillis() / 4);
    try {
      if (thread.join(Duration.ofMillis(grace))) {
        return true;
      }
      LOG.log(
          System.Logger.Level.WARNING,
          thread.getName() + " ignored the interrupt; its files are deleted under it");
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !thread.isAlive();
    }
  }

  /** Reports {@code result} stamped with the delivery attempt it came from. */
  private void publish(StepResult result, Progress progress) {
    publisher.publish(result.withAttempt(progress.attempt));
  }

  /**
   * The 1-based delivery attempt of {@code record}: SQS's {@code ApproximateReceiveCount}
   * attribute, or 1 when it is absent or unreadable.
   */
  /**
   * Puts the step's correlation fields (and the X-Ray trace header SQS carried as {@code
   * AWSTraceHeader}) on this thread's log lines until the batch processor clears them, and records
   * the pick-up: the time the message spent in its queue ({@code SentTimestamp}) and its delivery.
   */
  private void correlate(SQSMessage record, StepMessage step, long nowMillis, int attempt) {
    Correlation.job(
        step.jobId(), step.stepIndex(), step.capability(), step.executionId(), step.traceId());
    Map<String, String> attributes = record.getAttributes();
    Correlation.put(
        Correlation.XRAY_TRACE, attributes == null ? null : attributes.get("AWSTraceHeader"));
    stepLog.pickedUp(step.capability(), queueAgeMillis(attributes, nowMillis), attempt);
  }

  /** Milliseconds since SQS received the message ({@code SentTimestamp}), or null if unknown. */
  static Long queueAgeMillis(Map<String, String> attributes, long nowMillis) {
    String sent = attributes == null ? null : attributes.get("SentTimestamp");
    try {
      return sent == null ? null : Math.max(0, nowMillis - Long.parseLong(sent.trim()));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static int receiveCount(SQSMessage record) {
    Map<String, String> attributes = record.getAttributes();
    String count = attributes == null ? null : attributes.get("ApproximateReceiveCount");
    try {
      return count == null ? 1 : Math.max(1, Integer.parseInt(count.trim()));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private long download(StepMessage step, Path input) throws IOException {
    try {
      return store.download(step.input(), step.inputEtag(), input, settings.maxSourceBytes());
    } catch (ObjectNotFoundException e) {
      throw new PermanentStepFailure(StepErrorTypes.INPUT_MISSING, e.getMessage(), e);
    } catch (ObjectChangedException e) {
      throw new PermanentStepFailure(
          StepErrorTypes.SOURCE_CHANGED,
          "the source "
              + step.input().key()
              + " changed after the request was accepted; request the derivative again",
          e);
    } catch (ObjectTooLargeException e) {
      throw new PermanentStepFailure(StepErrorTypes.INPUT_TOO_LARGE, e.getMessage(), e);
    }
  }

  /** Reports {@code failure} as the step's FAILED result; hands the record back if that fails. */
  private StepOutcome report(
      SQSMessage record,
      StepMessage step,
      Progress progress,
      long startedNanos,
      long startedAtMillis,
      PermanentStepFailure failure) {
    StepError error =
        new StepError(
            failure.type(),
            FailureDescriptions.forUser(failure.type(), failure.detail()),
            failure.retryable());
    if (failure.getCause() != null) {
      // the library's own words (class names, its messages) are for the log, not the user
      LOG.log(
          System.Logger.Level.INFO,
          "step "
              + step.jobId()
              + "#"
              + step.stepIndex()
              + " failed with "
              + failure.type()
              + ": "
              + failure.detail(),
          failure.getCause());
    }
    try {
      publish(StepResult.failure(step, error, startedAtMillis, clock.millis()), progress);
    } catch (RuntimeException e) {
      // Not reported: let SQS redeliver (on the last delivery the dead-letter queue's consumer
      // fails the job).
      LOG.log(
          System.Logger.Level.WARNING,
          "could not report the failure of step " + step.jobId() + "#" + step.stepIndex(),
          e);
      log(
          record,
          step,
          progress,
          startedNanos,
          StepOutcome.RETRY,
          e.getClass().getSimpleName(),
          e.getMessage());
      return StepOutcome.RETRY;
    }
    log(record, step, progress, startedNanos, StepOutcome.FAILED, failure.type(), failure.detail());
    return StepOutcome.FAILED;
  }

  /**
   * A {@link VirtualMachineError} escaped the step: the process is no longer trustworthy (it is
   * replaced after this batch) and the record is transient, never an input error.
   */
  private StepOutcome workerBroke(
      SQSMessage record,
      StepMessage step,
      Progress progress,
      long startedNanos,
      long startedAtMillis,
      Throwable failure) {
    VirtualMachineError error = FailureDescriptions.virtualMachineError(failure);
    health.poison(
        "step "
            + step.jobId()
            + "#"
            + step.stepIndex()
            + " ("
            + step.capability()
            + "): "
            + FailureDescriptions.describe(failure));
    return handBack(
        record,
        step,
        progress,
        startedNanos,
        startedAtMillis,
        failure,
        error.getClass().getSimpleName(),
        StepErrorTypes.WORKER_FAILED);
  }

  /**
   * A transient failure: hands the record back to SQS (logged as a retry with {@code
   * retryErrorType}), except on its last delivery, where it is reported FAILED with {@code
   * exhaustedType}.
   */
  private StepOutcome handBack(
      SQSMessage record,
      StepMessage step,
      Progress progress,
      long startedNanos,
      long startedAtMillis,
      Throwable cause,
      String retryErrorType,
      String exhaustedType) {
    if (settings.lastDelivery(progress.attempt) && progress.success != null) {
      // The output is there; only its report failed: try the report once more.
      try {
        publish(progress.success, progress);
        log(record, step, progress, startedNanos, progress.successOutcome, null, null);
        return progress.successOutcome;
      } catch (RuntimeException e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "could not report the success of step " + step.jobId() + "#" + step.stepIndex(),
            e);
        log(
            record,
            step,
            progress,
            startedNanos,
            StepOutcome.RETRY,
            e.getClass().getSimpleName(),
            e.getMessage());
        return StepOutcome.RETRY;
      }
    }
    if (settings.lastDelivery(progress.attempt)) {
      LOG.log(
          System.Logger.Level.WARNING,
          "step " + step.jobId() + "#" + step.stepIndex() + " failed on its last delivery",
          cause);
      return reportExhausted(
          record,
          step,
          progress,
          startedNanos,
          startedAtMillis,
          exhaustedType,
          FailureDescriptions.describe(cause));
    }
    LOG.log(
        System.Logger.Level.WARNING,
        "step " + step.jobId() + "#" + step.stepIndex() + " will be retried by SQS",
        cause);
    log(
        record,
        step,
        progress,
        startedNanos,
        StepOutcome.RETRY,
        retryErrorType,
        cause.getMessage());
    return StepOutcome.RETRY;
  }

  /**
   * Reports that the step failed on all its deliveries, {@code lastCause} (a human sentence) being
   * the last one; hands the record back if even that report cannot be sent.
   */
  private StepOutcome reportExhausted(
      SQSMessage record,
      StepMessage step,
      Progress progress,
      long startedNanos,
      long startedAtMillis,
      String type,
      String lastCause) {
    String detail =
        "step "
            + (step.stepIndex() + 1)
            + " of "
            + step.stepCount()
            + " ("
            + step.capability()
            + ") failed on all "
            + progress.attempt
            + (progress.attempt == 1 ? " delivery" : " deliveries")
            + "; last error: "
            + lastCause;
    StepError error = new StepError(type, detail, StepErrorKinds.retryable(type));
    try {
      publish(StepResult.failure(step, error, startedAtMillis, clock.millis()), progress);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "could not report the exhausted step " + step.jobId() + "#" + step.stepIndex(),
          e);
      log(
          record,
          step,
          progress,
          startedNanos,
          StepOutcome.RETRY,
          e.getClass().getSimpleName(),
          e.getMessage());
      return StepOutcome.RETRY;
    }
    log(record, step, progress, startedNanos, StepOutcome.FAILED, type, detail);
    return StepOutcome.FAILED;
  }

  private void log(
      SQSMessage record,
      StepMessage step,
      Progress progress,
      long startedNanos,
      StepOutcome outcome,
      String errorType,
      String detail) {
    stepLog.write(
        new StepLog.Entry(
            record.getMessageId(),
            step.jobId(),
            step.stepIndex(),
            step.capability(),
            step.traceId(),
            progress.inputBytes,
            progress.outputBytes,
            elapsedMillis(startedNanos),
            outcome,
            errorType,
            detail,
            step.executionId(),
            progress.attempt));
  }

  private static String contentType(StepMessage step) {
    return step.outputMediaType() == null
        ? MediaTypes.APPLICATION_OCTET_STREAM
        : step.outputMediaType();
  }

  private static long elapsedMillis(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1_000_000;
  }

  /** What is known about a record so far, for its log line. */
  private static final class Progress {
    final int attempt;
    final StepBudget budget;

    /** When download and transform must have finished ({@link System#nanoTime}); MAX: never. */
    final long deadlineNanos;

    volatile Long inputBytes;
    volatile Long outputBytes;

    /** The success result once the output exists (sent, or about to be), else null. */
    StepResult success;

    StepOutcome successOutcome;

    Progress(int attempt, long startedNanos, StepBudget budget) {
      this.attempt = attempt;
      this.budget = budget;
      this.deadlineNanos =
          budget.millis() >= Long.MAX_VALUE / 1_000_000
              ? Long.MAX_VALUE
              : startedNanos + TimeUnit.MILLISECONDS.toNanos(budget.millis());
    }
  }
}
