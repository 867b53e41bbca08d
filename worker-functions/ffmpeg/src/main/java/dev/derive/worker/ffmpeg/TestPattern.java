package dev.derive.worker.ffmpeg;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A video clip of FFmpeg's {@code testsrc2} pattern (moving colour bars, gradients and a counter:
 * never black, every frame different), made by the {@link Ffmpeg#shared} FFmpeg: the video
 * capability's self-test and the bench's inputs.
 */
public final class TestPattern {
  /** The longest an encode may take. */
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  private TestPattern() {}

  /**
   * Writes {@code seconds} of {@code width} x {@code height} pixels at {@code rate} frames a second
   * to {@code output} in the container {@code format} (an FFmpeg muxer, e.g. {@code mp4}), encoded
   * with {@code encoding} (FFmpeg's output options, e.g. {@code -c:v mpeg4}).
   *
   * @throws FfmpegException if FFmpeg fails (an encoder this build lacks)
   * @throws FfmpegTimeoutException past five minutes
   */
  public static Path write(
      Path output,
      int width,
      int height,
      int rate,
      double seconds,
      String format,
      List<String> encoding) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "-v",
                "error",
                "-nostdin",
                "-y",
                "-f",
                "lavfi",
                "-i",
                "testsrc2=s=" + width + "x" + height + ":r=" + rate + ":d=" + seconds));
    args.addAll(encoding);
    args.addAll(List.of("-f", format, "file:" + output.toAbsolutePath()));
    Ffmpeg.shared().run(Ffmpeg.Tool.FFMPEG, args, null, 1 << 20, TIMEOUT);
    return output;
  }
}
