package dev.derive.worker.runtime;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.MalformedMessageException;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import dev.derive.worker.runtime.report.StepResultPublisher;
import dev.derive.worker.runtime.store.ObjectNotFoundException;
import dev.derive.worker.runtime.store.ObjectStore;
import dev.derive.worker.runtime.store.ObjectTooLargeException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Runs one SQS record through a step: decode, reuse an existing output, download, transform,
 * upload, report. Classifies every failure as permanent (report FAILED, delete the message) or
 * transient (let SQS redeliver it), and writes the record's one {@link StepLog} line.
 *
 * <p>Download and transform run on a daemon thread of their own in a fresh per-step directory under
 * the temp directory; the runner waits for them at most the step's {@link StepBudget}. Past it the
 * runner interrupts that thread, gives it a short grace to stop, deletes the directory (a thread
 * that ignores the interrupt can no longer create files there) and reports the record: FAILED with
 * {@code timeout} when the step had the whole invocation, else a retry. The upload runs on the
 * runner thread only after the transform finished in time, so a cancelled step never writes its
 * output object. Java cannot stop a thread that ignores interrupts: such a thread keeps running (as
 * a daemon) until it ends by itself.
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

  StepRunner(
      StepTransformer transformer,
      ObjectStore store,
      StepResultPublisher publisher,
      WorkerSettings settings,
      StepLog stepLog,
      Clock clock) {
    this.transformer = transformer;
    this.store = store;
    this.publisher = publisher;
    this.settings = settings;
    this.stepLog = stepLog;
    this.clock = clock;
  }

  /**
   * Handles {@code record} within {@code budget} and says whether SQS should delete it.
   *
   * @param budget how long download and transform may take, and what an overrun means
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

    Progress progress = new Progress();
    progress.attempt = receiveCount(record);
    try {
      StepOutcome outcome = execute(step, startedAtMillis, progress, budget);
      log(record, step, progress, startedNanos, outcome, null, null);
      return outcome;
    } catch (PermanentStepFailure failure) {
      try {
        publish(
            StepResult.failure(step, failure.toStepError(), startedAtMillis, clock.millis()),
            progress);
      } catch (RuntimeException e) {
        return retry(record, step, progress, startedNanos, e);
      }
      log(
          record,
          step,
          progress,
          startedNanos,
          StepOutcome.FAILED,
          failure.type(),
          failure.detail());
      return StepOutcome.FAILED;
    } catch (DeadlineExceededException e) {
      return retry(record, step, progress, startedNanos, e, StepErrorTypes.TIMEOUT);
    } catch (Exception | OutOfMemoryError | StackOverflowError e) {
      return retry(record, step, progress, startedNanos, e);
    }
  }

  private StepOutcome execute(
      StepMessage step, long startedAtMillis, Progress progress, StepBudget budget)
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
      publish(
          StepResult.success(step, existing.getAsLong(), startedAtMillis, clock.millis(), true),
          progress);
      return StepOutcome.REUSED;
    }

    Path workDirectory = Files.createTempDirectory(settings.tempDirectory(), "derive-step-");
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
      awaitWithin(work, thread, budget);
      progress.outputBytes = Files.size(output);
      store.upload(output, step.output(), contentType(step));
    } finally {
      deleteTree(workDirectory);
    }
    publish(
        StepResult.success(step, progress.outputBytes, startedAtMillis, clock.millis(), false),
        progress);
    return StepOutcome.SUCCEEDED;
  }

  /**
   * Waits for {@code work} at most {@code budget.millis()}; on overrun interrupts it, waits up to
   * the grace for {@code thread} to stop, and throws.
   *
   * @throws PermanentStepFailure with {@code timeout} on overrun of a whole-invocation budget, or
   *     what the work threw
   * @throws DeadlineExceededException on overrun of a partial budget
   */
  private void awaitWithin(FutureTask<Void> work, Thread thread, StepBudget budget)
      throws IOException {
    try {
      work.get(budget.millis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      work.cancel(true);
      awaitStop(thread);
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

  private void awaitStop(Thread thread) {
    long grace = Math.min(MAX_CANCEL_GRACE_MILLIS, settings.deadlineMarginMillis() / 4);
    try {
      if (!thread.join(Duration.ofMillis(grace))) {
        LOG.log(
            System.Logger.Level.WARNING,
            thread.getName() + " ignored the interrupt; its files are deleted under it");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
  static int receiveCount(SQSMessage record) {
    java.util.Map<String, String> attributes = record.getAttributes();
    String count = attributes == null ? null : attributes.get("ApproximateReceiveCount");
    try {
      return count == null ? 1 : Math.max(1, Integer.parseInt(count.trim()));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private long download(StepMessage step, Path input) throws IOException {
    try {
      return store.download(step.input(), input, settings.maxSourceBytes());
    } catch (ObjectNotFoundException e) {
      throw new PermanentStepFailure(StepErrorTypes.INPUT_MISSING, e.getMessage(), e);
    } catch (ObjectTooLargeException e) {
      throw new PermanentStepFailure(StepErrorTypes.INPUT_TOO_LARGE, e.getMessage(), e);
    }
  }

  private StepOutcome retry(
      SQSMessage record, StepMessage step, Progress progress, long startedNanos, Throwable e) {
    return retry(record, step, progress, startedNanos, e, e.getClass().getSimpleName());
  }

  private StepOutcome retry(
      SQSMessage record,
      StepMessage step,
      Progress progress,
      long startedNanos,
      Throwable e,
      String errorType) {
    LOG.log(
        System.Logger.Level.WARNING,
        "step " + step.jobId() + "#" + step.stepIndex() + " will be retried by SQS",
        e);
    log(record, step, progress, startedNanos, StepOutcome.RETRY, errorType, e.getMessage());
    return StepOutcome.RETRY;
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
            detail));
  }

  private static String contentType(StepMessage step) {
    return step.outputMediaType() == null
        ? MediaTypes.APPLICATION_OCTET_STREAM
        : step.outputMediaType();
  }

  private static long elapsedMillis(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1_000_000;
  }

  /** Deletes {@code directory} and everything in it, logging what cannot be deleted. */
  private static void deleteTree(Path directory) {
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(StepRunner::deleteQuietly);
    } catch (IOException | UncheckedIOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot list temp directory " + directory, e);
      deleteQuietly(directory);
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot delete temp file " + file, e);
    }
  }

  /** What is known about a record so far, for its log line. */
  private static final class Progress {
    volatile Long inputBytes;
    volatile Long outputBytes;
    int attempt = 1;
  }
}
