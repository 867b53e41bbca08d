package dev.derive.worker.runtime;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * {@link ProcessExit} that halts the JVM at once, from the invocation's own thread.
 *
 * <p>Why from within the invocation rather than after its response: nothing in the handler chain
 * (Quarkus serialises the response, the runtime client POSTs it, then asks for the next invocation
 * at once) offers a hook after the POST, so an exit timed after it left a process that kept taking
 * invocations for about a second, and on AWS, where the environment is frozen once the response is
 * out, until its next invocation. The batch is settled with the queue before (the processor deletes
 * what it processed and releases what it hands back), so the invocation's failure ({@code
 * Runtime.ExitError}) leaves nothing behind for the event source mapping.
 *
 * <p>Why {@link Runtime#halt} rather than {@link System#exit}: shutdown hooks could wait on the
 * very thread that would not stop, or need the memory that ran out. Standard output and error are
 * flushed first, so the step log is complete.
 */
final class HaltingProcessExit implements ProcessExit {
  /** The exit status: 70, {@code EX_SOFTWARE} of BSD's {@code sysexits.h} (an internal error). */
  static final int EXIT_STATUS = 70;

  private final IntConsumer halt;
  private final AtomicBoolean requested = new AtomicBoolean();

  HaltingProcessExit() {
    this(status -> Runtime.getRuntime().halt(status));
  }

  /**
   * @param halt what ends the process, given the exit status (tests pass a recorder)
   */
  HaltingProcessExit(IntConsumer halt) {
    this.halt = Objects.requireNonNull(halt, "halt");
  }

  @Override
  public void exit(String reason) {
    if (!requested.compareAndSet(false, true)) {
      return;
    }
    System.out.flush();
    System.err.println("derive: exiting so the function process is replaced: " + reason);
    System.err.flush();
    halt.accept(EXIT_STATUS);
  }
}
