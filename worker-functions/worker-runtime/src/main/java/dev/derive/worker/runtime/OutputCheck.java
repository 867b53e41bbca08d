package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepResult;
import dev.derive.storage.ObjectStore;
import dev.derive.worker.runtime.report.StepResultPublisher;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Whether a step's output already exists, and the step's start report, both on one virtual thread
 * beside the step's download: a HEAD of the output and then, when it is absent, the start report
 * once it is due. The step's common case (no output yet) so waits for neither round trip; the rare
 * one (a redelivery, or a duplicate SQS delivery, after the output was written) downloads its input
 * for nothing before it is reused.
 *
 * <p>The start report tells the coordinator the step started (so the job reads RUNNING with this
 * attempt) once it has run for the start report delay ({@link
 * WorkerSettings#startReportDelayMillis}, counted from the delivery's start); not at all when the
 * step ends sooner, since its result carries the same attempt and start time (the record a start
 * report would have written is then never seen, and a progress invocation is saved). Best effort:
 * if it cannot be sent the step goes on, and its final result still counts. Every final result and
 * the end of the delivery wait for the thread first ({@link #end}), so the two reports are sent in
 * order and none outlives the invocation.
 */
final class OutputCheck {
  private static final System.Logger LOG = System.getLogger(OutputCheck.class.getName());

  private final StepAttempt attempt;
  private final StepResultPublisher publisher;
  private final long startReportDelayMillis;
  private final CompletableFuture<OptionalLong> existing = new CompletableFuture<>();

  /** Counted down when the step has ended ({@link #end}): a start report not yet sent never is. */
  private final CountDownLatch ended = new CountDownLatch(1);

  private final Thread thread;

  private OutputCheck(
      ObjectStore store,
      StepResultPublisher publisher,
      long startReportDelayMillis,
      StepAttempt attempt) {
    this.attempt = attempt;
    this.publisher = publisher;
    this.startReportDelayMillis = startReportDelayMillis;
    this.thread =
        Thread.ofVirtual().name("output-check-" + attempt.name()).unstarted(() -> run(store));
  }

  /**
   * Starts the HEAD of {@code attempt}'s output, and its start report if the output is absent.
   *
   * @param startReportDelayMillis how long a step runs before its start report is sent (0: at once)
   */
  static OutputCheck start(
      ObjectStore store,
      StepResultPublisher publisher,
      long startReportDelayMillis,
      StepAttempt attempt) {
    OutputCheck check = new OutputCheck(store, publisher, startReportDelayMillis, attempt);
    check.thread.start();
    return check;
  }

  private void run(ObjectStore store) {
    OptionalLong size;
    try {
      size = store.size(attempt.step().output());
    } catch (RuntimeException | Error e) {
      existing.completeExceptionally(e);
      return;
    }
    existing.complete(size);
    if (size.isEmpty()) {
      reportStarted();
    }
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

  /**
   * Marks the step ended (a start report not yet due is dropped) and waits until the HEAD and the
   * start report, if begun, are done: the report sent or given up (the S3 and SQS clients' own
   * timeouts bound both). Lambda freezes an instance when its handler returns, so a send still in
   * flight then would be cut off or finish in a later invocation. Idempotent.
   */
  void end() {
    ended.countDown();
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void reportStarted() {
    if (startReportDelayMillis > 0 && endsBeforeItsStartReport()) {
      return;
    }
    try {
      publisher.publish(
          StepResult.started(attempt.step(), attempt.startedAtMillis())
              .withAttempt(attempt.attempt()));
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "could not report the start of step " + attempt.name() + "; running it anyway",
          e);
    }
  }

  /** Waits until the start report is due; true when the step ended first (or meanwhile). */
  private boolean endsBeforeItsStartReport() {
    long dueInMillis = startReportDelayMillis - attempt.elapsedMillis();
    try {
      return dueInMillis > 0
          ? ended.await(dueInMillis, TimeUnit.MILLISECONDS)
          : ended.getCount() == 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }
}
