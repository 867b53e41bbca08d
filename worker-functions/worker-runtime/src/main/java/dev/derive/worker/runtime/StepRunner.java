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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.OptionalLong;

/**
 * Runs one SQS record through a step: decode, reuse an existing output, download, transform,
 * upload, report. Classifies every failure as permanent (report FAILED, delete the message) or
 * transient (let SQS redeliver it), and writes the record's one {@link StepLog} line.
 */
final class StepRunner {
  private static final System.Logger LOG = System.getLogger(StepRunner.class.getName());

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

  /** Handles {@code record} and says whether SQS should delete it. */
  StepOutcome run(SQSMessage record) {
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
      StepOutcome outcome = execute(step, startedAtMillis, progress);
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
    } catch (Exception | OutOfMemoryError | StackOverflowError e) {
      return retry(record, step, progress, startedNanos, e);
    }
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
      publish(
          StepResult.success(step, existing.getAsLong(), startedAtMillis, clock.millis(), true),
          progress);
      return StepOutcome.REUSED;
    }

    Path input = null;
    Path output = null;
    try {
      input = Files.createTempFile(settings.tempDirectory(), "derive-input-", ".tmp");
      progress.inputBytes = download(step, input);
      output = Files.createTempFile(settings.tempDirectory(), "derive-output-", ".tmp");
      transformer.transform(step, input, output);
      Files.deleteIfExists(input);
      progress.outputBytes = Files.size(output);
      store.upload(output, step.output(), contentType(step));
    } finally {
      deleteQuietly(input);
      deleteQuietly(output);
    }
    publish(
        StepResult.success(step, progress.outputBytes, startedAtMillis, clock.millis(), false),
        progress);
    return StepOutcome.SUCCEEDED;
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
    LOG.log(
        System.Logger.Level.WARNING,
        "step " + step.jobId() + "#" + step.stepIndex() + " will be retried by SQS",
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

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "cannot delete temp file " + file, e);
    }
  }

  /** What is known about a record so far, for its log line. */
  private static final class Progress {
    Long inputBytes;
    Long outputBytes;
    int attempt = 1;
  }
}
