package dev.derive.worker.runtime;

/**
 * Ends the function process once it can no longer be trusted (a step thread ignored its interrupt,
 * or an {@link OutOfMemoryError} or {@link StackOverflowError} escaped a step), so Lambda, and the
 * local cloud, which restarts a function process that exits, replace it with a fresh one (issue 9,
 * item 9). The seam lets tests prove the exit is asked for without ending the test JVM.
 */
@FunctionalInterface
public interface ProcessExit {

  /**
   * Ends the process now, from within the invocation, so that it never asks the Lambda Runtime API
   * for another one (the invocation ends as {@code Runtime.ExitError}; its batch was settled with
   * the queue first). A test's exit returns; asking again does nothing more.
   *
   * @param reason why, for the log (a human sentence)
   */
  void exit(String reason);

  /** The production exit: halts the JVM with status {@link HaltingProcessExit#EXIT_STATUS}. */
  static ProcessExit halting() {
    return new HaltingProcessExit();
  }
}
