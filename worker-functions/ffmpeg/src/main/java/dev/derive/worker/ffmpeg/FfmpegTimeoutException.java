package dev.derive.worker.ffmpeg;

import java.time.Duration;

/** An FFmpeg run killed at its deadline, or because the thread waiting for it was interrupted. */
public final class FfmpegTimeoutException extends FfmpegException {
  private final Duration limit;

  /**
   * @param limit the time the run was given
   * @param message why it was stopped
   */
  public FfmpegTimeoutException(Duration limit, String message) {
    super(-1, message);
    this.limit = limit;
  }

  /** The time the run was given. */
  public Duration limit() {
    return limit;
  }
}
