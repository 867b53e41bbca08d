package dev.derive.worker.ffmpeg;

/**
 * The {@code ffmpeg}/{@code ffprobe} executables cannot be found or started here: a deployment
 * fault (the layer is missing), never the input's. Callers leave it unchecked so the step is
 * retried and reaches the dead-letter queue rather than being recorded as the input's failure.
 */
public final class FfmpegUnavailableException extends RuntimeException {
  /**
   * @param message where the executables were looked for and why each place failed
   */
  public FfmpegUnavailableException(String message) {
    super(message);
  }
}
