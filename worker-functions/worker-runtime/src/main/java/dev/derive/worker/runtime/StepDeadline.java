package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepErrorTypes;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a step's download and transform on a daemon thread of their own and waits for them until the
 * step's {@link StepBudget} (counted from the delivery's start) runs out. Past it the thread is
 * interrupted and given a short grace to stop; one that ignores the interrupt marks the process as
 * no longer trustworthy ({@link WorkerHealth}): Java cannot stop it.
 */
final class StepDeadline {
  private static final System.Logger LOG = System.getLogger(StepDeadline.class.getName());

  /** The longest wait for an interrupted step thread to stop before its files are deleted, ms. */
  static final long MAX_CANCEL_GRACE_MILLIS = 1_000;

  private static final AtomicLong THREADS = new AtomicLong();

  private final WorkerHealth health;
  private final long deadlineMarginMillis;

  /**
   * @param deadlineMarginMillis the margin kept before the Lambda deadline; a quarter of it (at
   *     most {@link #MAX_CANCEL_GRACE_MILLIS}) is the grace of an interrupted thread
   */
  StepDeadline(WorkerHealth health, long deadlineMarginMillis) {
    this.health = health;
    this.deadlineMarginMillis = deadlineMarginMillis;
  }

  /**
   * Runs {@code work} on a new daemon thread and waits for it within {@code attempt}'s deadline;
   * what it returned.
   *
   * @throws PermanentStepFailure with {@code timeout} on overrun of a whole-invocation budget, or
   *     what the work threw
   * @throws DeadlineExceededException on overrun of a partial budget
   * @throws IOException what the work threw
   */
  <T> T run(Callable<T> work, StepAttempt attempt) throws IOException {
    FutureTask<T> task = new FutureTask<>(work);
    Thread thread =
        Thread.ofPlatform().daemon().name("derive-step-" + THREADS.incrementAndGet()).start(task);
    try {
      if (attempt.deadlineNanos() == Long.MAX_VALUE) {
        return task.get();
      }
      return task.get(
          Math.max(0, attempt.deadlineNanos() - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      task.cancel(true);
      if (!awaitStop(thread)) {
        health.poison(
            "step "
                + attempt.nameWithCapability()
                + " ignored the interrupt after its time ran out and is still running");
      }
      throw overrun(attempt.budget(), e);
    } catch (ExecutionException e) {
      throw rethrown(e.getCause());
    } catch (InterruptedException e) {
      task.cancel(true);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the step");
    }
  }

  /**
   * What an overrun of {@code budget} means: {@code timeout} for the whole invocation, else retry.
   */
  private IOException overrun(StepBudget budget, TimeoutException e) {
    if (budget.wholeInvocation()) {
      throw new PermanentStepFailure(
          StepErrorTypes.TIMEOUT,
          "did not finish within the function's time limit; the step was stopped after "
              + budget.millis()
              + " ms (the invocation's time minus a "
              + deadlineMarginMillis
              + " ms margin)",
          e);
    }
    return new DeadlineExceededException(
        "stopped after "
            + budget.millis()
            + " ms, the time left in an invocation whose earlier records used the rest;"
            + " handed back for a retry");
  }

  /** The work's own failure, unwrapped; an undeclared checked one as an I/O failure. */
  private static IOException rethrown(Throwable cause) {
    if (cause instanceof IOException io) {
      return io;
    }
    if (cause instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new IOException(cause);
  }

  /** Waits up to the grace for {@code thread} to end; whether it did. */
  private boolean awaitStop(Thread thread) {
    long grace = Math.min(MAX_CANCEL_GRACE_MILLIS, deadlineMarginMillis / 4);
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
}
