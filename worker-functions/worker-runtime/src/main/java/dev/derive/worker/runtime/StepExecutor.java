package dev.derive.worker.runtime;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.storage.ObjectChangedException;
import dev.derive.storage.ObjectNotFoundException;
import dev.derive.storage.ObjectStore;
import dev.derive.storage.ObjectTooLargeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

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

  StepExecutor(
      CapabilityDescriptor declaration,
      StepTransformer transformer,
      ObjectStore store,
      WorkerSettings settings,
      StepReports reports,
      StepDeadline deadline) {
    this.declaration = declaration;
    this.transformer = transformer;
    this.store = store;
    this.settings = settings;
    this.reports = reports;
    this.deadline = deadline;
  }

  /**
   * Runs {@code attempt}'s step to its reported success.
   *
   * @return {@link StepOutcome#REUSED} or {@link StepOutcome#SUCCEEDED}
   * @throws PermanentStepFailure when the step can never succeed (one its declaration does not
   *     allow ({@link DeclaredStep}), input missing, changed or too large, the transformer's
   *     refusal, a timeout of a whole-invocation budget)
   * @throws DeadlineExceededException when a partial budget ran out
   * @throws IOException on transient I/O trouble; the delivery is retried
   */
  StepOutcome execute(StepAttempt attempt) throws IOException {
    StepMessage step = attempt.step;
    // before anything is read or reported: a step the declaration does not allow never runs
    DeclaredStep declared = DeclaredStep.bind(declaration, step);
    OutputCheck check = OutputCheck.start(store, reports, attempt);
    Path workDirectory = StepDirectories.create(settings.tempDirectory());
    try {
      Path input = Files.createFile(workDirectory.resolve("input.tmp"));
      Path output = Files.createFile(workDirectory.resolve("output.tmp"));
      OptionalLong existing =
          deadline.run(
              () -> downloadAndTransform(attempt, declared, check, input, output), attempt);
      if (existing.isPresent()) {
        reports.success(attempt, existing.getAsLong(), true);
        return StepOutcome.REUSED;
      }
      attempt.outputBytes = Files.size(output);
      store.upload(output, step.output(), contentType(step));
    } finally {
      StepDirectories.deleteTree(workDirectory);
    }
    reports.success(attempt, attempt.outputBytes, false);
    return StepOutcome.SUCCEEDED;
  }

  /**
   * Downloads the input while {@code check} looks up the output, then transforms it unless the
   * output exists; the existing output's size, or empty when {@code output} now holds the result.
   * An output that exists wins over the download's own failure: the input may be gone or changed
   * since the output was made from it (content-addressed, so still the right bytes).
   */
  private OptionalLong downloadAndTransform(
      StepAttempt attempt, DeclaredStep declared, OutputCheck check, Path input, Path output)
      throws IOException {
    StepMessage step = attempt.step;
    try {
      attempt.inputBytes = download(step, input);
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
    transformer.transform(declared, input, output);
    Files.deleteIfExists(input);
    return OptionalLong.empty();
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
