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
   * Asks for the process to end after the current invocation's batch response has been returned to
   * the Lambda runtime. Returns at once; asking again does nothing more.
   *
   * @param reason why, for the log (a human sentence)
   */
  void exitAfterResponse(String reason);

  /**
   * The production exit: {@link HaltingProcessExit#EXIT_DELAY} after the request, a daemon thread
   * halts the JVM with status {@link HaltingProcessExit#EXIT_STATUS}.
   */
  static ProcessExit halting() {
    return new HaltingProcessExit();
  }
}
