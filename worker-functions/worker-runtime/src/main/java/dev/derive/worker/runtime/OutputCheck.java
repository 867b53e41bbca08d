package dev.derive.worker.runtime;

import dev.derive.storage.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Whether a step's output already exists, asked beside the step's download rather than before it:
 * on a virtual thread, a HEAD of the output and then, when it is absent, the start report once it
 * is due ({@link StepReports#reportStarted}). The step's common case (no output yet) so waits for
 * neither round trip; the rare one (a redelivery, or a duplicate SQS delivery, after the output was
 * written) downloads its input for nothing before it is reused.
 *
 * <p>The thread is the attempt's {@link StepAttempt#outputCheck}, so every final result and the end
 * of the delivery wait for it ({@link StepReports#awaitOutputCheck}).
 */
final class OutputCheck {
  private final CompletableFuture<OptionalLong> existing = new CompletableFuture<>();

  private OutputCheck() {}

  /** Starts the HEAD of {@code attempt}'s output, and its start report if the output is absent. */
  static OutputCheck start(ObjectStore store, StepReports reports, StepAttempt attempt) {
    OutputCheck check = new OutputCheck();
    attempt.outputCheck =
        Thread.ofVirtual()
            .name("output-check-" + attempt.name())
            .unstarted(
                () -> {
                  OptionalLong size;
                  try {
                    size = store.size(attempt.step.output());
                  } catch (RuntimeException | Error e) {
                    check.existing.completeExceptionally(e);
                    return;
                  }
                  check.existing.complete(size);
                  if (size.isEmpty()) {
                    reports.reportStarted(attempt);
                  }
                });
    attempt.outputCheck.start();
    return check;
  }

  /**
   * The existing output's size in bytes, or empty when the step must make it; waits for the HEAD
   * (not for the start report).
   *
   * @throws RuntimeException what the HEAD threw ({@link dev.derive.storage.ObjectStoreException}:
   *     the delivery is retried, as it was when the HEAD came before the download)
   * @throws InterruptedIOException if interrupted while waiting (the step's deadline passed)
   */
  OptionalLong existing() throws IOException {
    try {
      return existing.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while looking up the step's output");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Error error) {
        throw error;
      }
      throw (RuntimeException) cause;
    }
  }
}
