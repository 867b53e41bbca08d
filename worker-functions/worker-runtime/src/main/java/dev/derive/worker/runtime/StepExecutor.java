package dev.derive.worker.runtime;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.PinnedObject;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.storage.ObjectChangedException;
import dev.derive.storage.ObjectNotFoundException;
import dev.derive.storage.ObjectStore;
import dev.derive.storage.ObjectTooLargeException;
import dev.derive.worker.runtime.report.StepResultPublisher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Does a decoded step's work: binds it to the capability's declaration ({@link DeclaredStep}: a
 * step the declaration does not allow fails {@code invalid-step} before anything is read),
 * downloads the input (pinned to the source's ETag when the step names one) while {@link
 * OutputCheck} asks whether the output already exists (outputs are content-addressed: a redelivery,
 * or an identical step of another job) and, if not, reports the start; reuses an output that
 * exists, else transforms the input within the step's deadline ({@link StepDeadline}) in a fresh
 * per-step directory ({@link StepDirectories}), uploads the output and reports the success.
 *
 * <p>The upload runs on the caller's thread only after the transform finished in time, so a
 * cancelled step never writes its output object; the directory is deleted whatever happens (a
 * thread that ignored its interrupt can no longer create files there).
 */
final class StepExecutor {
  private final CapabilityDescriptor declaration;
  private final StepTransformer transformer;
  private final ObjectStore store;
  private final WorkerSettings settings;
  private final StepReports reports;
  private final StepDeadline deadline;
  private final StepResultPublisher publisher;

  StepExecutor(
      CapabilityDescriptor declaration,
      StepTransformer transformer,
      ObjectStore store,
      WorkerSettings settings,
      StepReports reports,
      StepDeadline deadline,
      StepResultPublisher publisher) {
    this.declaration = declaration;
    this.transformer = transformer;
    this.store = store;
    this.settings = settings;
    this.reports = reports;
    this.deadline = deadline;
    this.publisher = publisher;
  }

  /**
   * Runs {@code attempt}'s step to its reported success.
   *
   * @return what the delivery made, its success reported ({@link StepProgress#successOutcome}:
   *     {@link StepOutcome#REUSED} or {@link StepOutcome#SUCCEEDED})
   * @throws StepFailedException with what the step threw and what it had made by then: a {@link
   *     PermanentStepFailure} when the step can never succeed (one its declaration does not allow
   *     ({@link DeclaredStep}), input missing, changed or too large, the transformer's refusal, a
   *     timeout of a whole-invocation budget); a {@link DeadlineExceededException} when a partial
   *     budget ran out; an {@link IOException} on transient I/O trouble (the delivery is retried);
   *     anything else it threw
   */
  StepProgress execute(StepAttempt attempt) throws StepFailedException {
    // the input's size, handed over from the step's own thread (StepDeadline)
    AtomicReference<Long> inputBytes = new AtomicReference<>();
    StepProgress progress = StepProgress.NONE;
    Map<String, Object> summary = null;
    try {
      // before anything is read or reported: a step the declaration does not allow never runs
      DeclaredStep declared = DeclaredStep.bind(declaration, attempt.step());
      OutputCheck check =
          OutputCheck.start(store, publisher, settings.startReportDelayMillis(), attempt);
      try {
        Path workDirectory = StepDirectories.create(settings.tempDirectory());
        try {
          Path input = Files.createFile(workDirectory.resolve("input.tmp"));
          Path output = Files.createFile(workDirectory.resolve("output.tmp"));
          OptionalLong existing =
              deadline.run(
                  () -> downloadAndTransform(attempt, declared, check, inputBytes, input, output),
                  attempt);
          progress = progress.read(inputBytes.get());
          if (existing.isPresent()) {
            check.end();
            summary = StepSummary.ofExisting(declared, store, attempt.step().output(), output);
            progress = reports.succeeded(attempt, progress, existing.getAsLong(), true, summary);
            reports.publish(attempt, progress.success());
            return progress;
          }
          progress = progress.written(Files.size(output));
          summary = StepSummary.ofWritten(declared, output);
          store.upload(output, attempt.step().output(), contentType(attempt.step()));
        } finally {
          StepDirectories.deleteTree(workDirectory);
        }
      } finally {
        check.end();
      }
      progress = reports.succeeded(attempt, progress, progress.outputBytes(), false, summary);
      reports.publish(attempt, progress.success());
      return progress;
    } catch (Exception | Error e) {
      throw new StepFailedException(progress.read(inputBytes.get()), e);
    }
  }

  /**
   * Downloads the input while {@code check} looks up the output, then transforms it unless the
   * output exists; the existing output's size, or empty when {@code output} now holds the result.
   * An output that exists wins over the download's own failure: the input may be gone or changed
   * since the output was made from it (content-addressed, so still the right bytes).
   *
   * @param inputBytes set to the input's size once it is downloaded
   */
  private OptionalLong downloadAndTransform(
      StepAttempt attempt,
      DeclaredStep declared,
      OutputCheck check,
      AtomicReference<Long> inputBytes,
      Path input,
      Path output)
      throws IOException {
    StepMessage step = attempt.step();
    try {
      inputBytes.set(download(step, input));
    } catch (IOException | RuntimeException e) {
      OptionalLong existing = check.existing();
      if (existing.isPresent()) {
        return existing;
      }
      throw e;
    }
    OptionalLong existing = check.existing();
    if (existing.isPresent()) {
      return existing;
    }
    transformer.transform(declared.withObjects(downloadObjects(step, input)), input, output);
    Files.deleteIfExists(input);
    return OptionalLong.empty();
  }

  /**
   * Downloads the other objects {@code step} reads (a watermark), each pinned to the ETag the
   * coordinator saw, into files beside {@code input}; their absence, change or excess size as the
   * step's failure, as the input's.
   */
  private Map<String, Path> downloadObjects(StepMessage step, Path input) throws IOException {
    Map<String, Path> files = new java.util.TreeMap<>();
    int n = 0;
    for (Map.Entry<String, PinnedObject> object :
        new java.util.TreeMap<>(step.objects()).entrySet()) {
      Path file = Files.createFile(input.resolveSibling("object-" + n++ + ".tmp"));
      PinnedObject pinned = object.getValue();
      try {
        store.download(pinned.ref(), pinned.etag(), file, settings.maxSourceBytes());
      } catch (ObjectNotFoundException e) {
        throw new PermanentStepFailure(
            StepErrorTypes.INPUT_MISSING,
            "the object " + pinned.ref().key() + " that " + object.getKey() + " names is gone",
            e);
      } catch (ObjectChangedException e) {
        throw new PermanentStepFailure(
            StepErrorTypes.SOURCE_CHANGED,
            "the object "
                + pinned.ref().key()
                + " that "
                + object.getKey()
                + " names changed after the request was accepted; request the derivative again",
            e);
      } catch (ObjectTooLargeException e) {
        throw new PermanentStepFailure(StepErrorTypes.INPUT_TOO_LARGE, e.getMessage(), e);
      }
      files.put(object.getKey(), file);
    }
    return files;
  }

  /** The input's size in bytes; its absence, change or excess size as the step's failure. */
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

  private static String contentType(StepMessage step) {
    return step.outputMediaType() == null
        ? MediaTypes.APPLICATION_OCTET_STREAM
        : step.outputMediaType();
  }
}
