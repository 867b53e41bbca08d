package dev.derive.worker.runtime;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * {@link ProcessExit} that halts the JVM from a daemon thread a short delay after it is asked.
 *
 * <p>Why a delay: the handler returns the batch response to Quarkus, which serialises it and hands
 * it to the Lambda runtime client, which POSTs it to the Runtime API; none of them offers a hook
 * after that POST. The delay ({@link #EXIT_DELAY}) is ample for a POST to a Runtime API on the same
 * host (milliseconds), and short, so that few next invocations reach the process before it ends
 * (the processor hands those back untouched, see {@code lambda.StepBatchProcessor}).
 *
 * <p>Why {@link Runtime#halt} rather than {@link System#exit}: shutdown hooks could wait on the
 * very thread that would not stop, or need the memory that ran out. Standard output and error are
 * flushed first, so the step log is complete.
 *
 * <p>On AWS the execution environment may be frozen as soon as the response is posted; the delay
 * then runs out when it thaws for its next invocation, which ends with {@code Runtime.ExitError}
 * (or, if the processor gets there first, hands its records back); SQS redelivers them either way.
 */
final class HaltingProcessExit implements ProcessExit {
  /** How long after the request the JVM halts. */
  static final Duration EXIT_DELAY = Duration.ofMillis(1_000);

  /** The exit status: 70, {@code EX_SOFTWARE} of BSD's {@code sysexits.h} (an internal error). */
  static final int EXIT_STATUS = 70;

  private static final System.Logger LOG = System.getLogger(HaltingProcessExit.class.getName());

  private final Duration delay;
  private final IntConsumer halt;
  private final AtomicBoolean requested = new AtomicBoolean();

  HaltingProcessExit() {
    this(EXIT_DELAY, status -> Runtime.getRuntime().halt(status));
  }

  /**
   * @param delay how long to wait after the request
   * @param halt what ends the process, given the exit status (tests pass a recorder)
   */
  HaltingProcessExit(Duration delay, IntConsumer halt) {
    this.delay = Objects.requireNonNull(delay, "delay");
    this.halt = Objects.requireNonNull(halt, "halt");
  }

  @Override
  public void exitAfterResponse(String reason) {
    if (!requested.compareAndSet(false, true)) {
      return;
    }
    LOG.log(
        System.Logger.Level.ERROR,
        "this worker process will exit in " + delay.toMillis() + " ms: " + reason);
    Thread.ofPlatform()
        .daemon()
        .name("derive-process-exit")
        .start(
            () -> {
              sleepUninterruptibly(delay);
              System.out.flush();
              System.err.println("derive: exiting so the function process is replaced: " + reason);
              System.err.flush();
              halt.accept(EXIT_STATUS);
            });
  }

  private static void sleepUninterruptibly(Duration delay) {
    long deadline = System.nanoTime() + delay.toNanos();
    long left;
    while ((left = deadline - System.nanoTime()) > 0) {
      try {
        Thread.sleep(Duration.ofNanos(left));
      } catch (InterruptedException e) {
        // the exit is not negotiable
      }
    }
  }
}
