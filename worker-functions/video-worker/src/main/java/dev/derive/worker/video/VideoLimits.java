package dev.derive.worker.video;

import java.time.Duration;

/**
 * What the video capability accepts, checked from the container's header before a frame is decoded,
 * and how long one FFmpeg run may take.
 *
 * @param maxPixels the largest frame (width x height) decoded; default 8K UHD (7680 x 4320)
 * @param maxSeconds the longest duration accepted, in seconds
 * @param timeout the time one FFmpeg run is given before it is killed (inside the function's own
 *     timeout; the step's deadline kills it earlier when it comes first)
 */
public record VideoLimits(long maxPixels, double maxSeconds, Duration timeout) {
  /** 8K UHD: 7680 x 4320 pixels. */
  public static final long DEFAULT_MAX_PIXELS = 7680L * 4320;

  /** Four hours. */
  public static final double DEFAULT_MAX_SECONDS = 4 * 3600;

  /** Two minutes. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  /** The defaults. */
  public static final VideoLimits DEFAULTS =
      new VideoLimits(DEFAULT_MAX_PIXELS, DEFAULT_MAX_SECONDS, DEFAULT_TIMEOUT);

  public VideoLimits {
    if (maxPixels <= 0 || maxSeconds <= 0 || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("video limits must be positive");
    }
  }
}
