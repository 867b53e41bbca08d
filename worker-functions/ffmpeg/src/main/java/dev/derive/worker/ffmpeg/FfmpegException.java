package dev.derive.worker.ffmpeg;

/**
 * An FFmpeg run that failed: it exited non-zero or printed more than it was allowed. The message is
 * FFmpeg's own last error lines (which may name the input's temp file: for the logs, not for
 * users).
 */
public class FfmpegException extends RuntimeException {
  private final int exitCode;

  /**
   * @param exitCode the process's exit code, or -1 if it was killed
   * @param message what FFmpeg printed last on its error stream, or why it was stopped
   */
  public FfmpegException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  /** The process's exit code, or -1 if Derive killed it. */
  public int exitCode() {
    return exitCode;
  }
}
