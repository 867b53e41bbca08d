package dev.derive.worker.video;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.ffmpeg.FfmpegException;
import dev.derive.worker.ffmpeg.FfmpegTimeoutException;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.util.Locale;

/**
 * FFmpeg's failures as a step's error: a stable type and a sentence for the user; FFmpeg's own
 * lines (which name the step's temp file) stay with the cause, for the logs.
 */
final class VideoFailures {
  private VideoFailures() {}

  /** ffprobe could not read the file: a container FFmpeg may not use, or a damaged one. */
  static PermanentStepFailure unreadable(FfmpegException e) {
    String message = e.getMessage().toLowerCase(Locale.ROOT);
    if (message.contains("whitelist")) {
      return new PermanentStepFailure(
          StepErrorTypes.UNSUPPORTED_INPUT,
          "the file is not a video container Derive reads (MP4, MOV, M4V, 3GP, WebM, Matroska,"
              + " AVI, FLV, MPEG-TS, MPEG-PS, WMV, Ogg); playlists (HLS, DASH, concat) that name"
              + " other files or addresses are refused",
          e);
    }
    return new PermanentStepFailure(
        StepErrorTypes.CORRUPT_INPUT,
        "the video cannot be read: the file is damaged or cut short",
        e);
  }

  /** ffmpeg could not decode the frames it was asked for. */
  static PermanentStepFailure undecodable(FfmpegException e) {
    return new PermanentStepFailure(
        StepErrorTypes.CORRUPT_INPUT,
        "the video's pictures cannot be decoded: the file is damaged or cut short",
        e);
  }

  /** A run killed at its deadline. */
  static PermanentStepFailure timeout(VideoLimits limits, FfmpegTimeoutException e) {
    return new PermanentStepFailure(
        StepErrorTypes.TIMEOUT,
        "decoding the video took longer than "
            + limits.timeout().toSeconds()
            + " s and was stopped",
        e);
  }
}
