package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.ffmpeg.Ffmpeg;
import dev.derive.worker.ffmpeg.FfmpegException;
import dev.derive.worker.ffmpeg.FfmpegTimeoutException;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsException;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * An animated AVIF (an AV1 image sequence, brand {@code avis}) written by FFmpeg's libaom encoder
 * and AVIF muxer, because libvips' {@code heifsave} writes the frames of a tall image as separate
 * still items, not a sequence (docs/animation.md). Each frame is saved as a PNG into a folder
 * beside the output and listed for FFmpeg's concat demuxer with its delay (millisecond time base);
 * the demuxer knows no duration for the last frame, so its packet gets its delay by the {@code
 * setts} filter. AVIF's alpha would need a second stream: the frames are flattened onto the step's
 * background, else white. The PNGs take room in the step's folder while FFmpeg runs: an animation
 * whose frames would take more than {@link #SCRATCH_BYTES} is refused before decoding ({@link
 * #checkScratch}).
 */
final class AnimatedAvif {
  /** The longest the encoding may take; the step's own deadline comes first. */
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  /** What a delay of 0 plays as: browsers show such a GIF frame for 100 ms. */
  static final int ZERO_DELAY_MS = 100;

  /** libaom's fastest {@code cpu-used} in FFmpeg's {@code good} usage. */
  private static final int FASTEST_CPU_USED = 8;

  /**
   * Room the frames' PNGs may take in the step's folder on {@code /tmp}, in bytes: 256 MiB, half of
   * the 512 MB of ephemeral storage Lambda gives a function that declares no {@code
   * EphemeralStorage} (the image worker declares none in {@code template.yaml}). The other half
   * holds the source (at most {@code MAX_SOURCE_BYTES}, 100 MB by default), the output and the
   * runtime's own files.
   */
  static final long SCRATCH_BYTES = 256L << 20;

  private AnimatedAvif() {}

  /**
   * The most bytes the PNGs of {@code frames} frames of {@code width} x {@code height} take: 3
   * bytes per 8-bit RGB pixel and a filter byte per row (frames that do not compress, which zlib at
   * level 1 then stores), plus zlib's 5 bytes per stored 64 KiB block and 1 KiB of chunks a frame.
   */
  static long scratchBytes(int frames, long width, long height) {
    long raw = (3 * width * height + Math.max(width, height)) * frames;
    return raw + raw / 10_000 + 1024L * frames;
  }

  /**
   * Refuses, before any frame is decoded, an animated AVIF whose frames' PNGs would take more than
   * {@link #SCRATCH_BYTES}.
   *
   * @throws PermanentStepFailure {@code input-too-large}
   */
  static void checkScratch(int frames, int width, int height) {
    long need = scratchBytes(frames, width, height);
    if (need > SCRATCH_BYTES) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          "an animated AVIF of "
              + frames
              + " frames of "
              + width
              + "x"
              + height
              + " needs about "
              + (need >> 20)
              + " MB of temporary disk space while it is encoded, more than the "
              + (SCRATCH_BYTES >> 20)
              + " MB this image worker has for it: ask for a smaller size, or make an animated"
              + " GIF or WebP");
    }
  }

  /**
   * Writes {@code roll} ({@code frames} frames stacked, each {@code delays}[i] ms, 0 playing as
   * {@value #ZERO_DELAY_MS}) to {@code output}, looping {@code loop} times (0: forever).
   *
   * @param quality 1..100, as libheif maps it to libaom's {@code cq-level}: (100 - q) x 63 / 100
   * @param effort 0..9, as libheif maps it to libaom's {@code cpu-used}: 9 - effort, at most 8
   * @param background the colour alpha is flattened onto, 0..255 red, green, blue
   * @throws PermanentStepFailure {@code worker-failed} when a frame cannot be written to the
   *     scratch folder or FFmpeg fails to encode (either would fail again on a redelivery)
   * @throws FfmpegTimeoutException when FFmpeg takes longer than {@link #TIMEOUT}
   * @throws dev.derive.worker.ffmpeg.FfmpegUnavailableException (retryable) without FFmpeg
   */
  static void write(
      Vips vips,
      VipsImage roll,
      int frames,
      int[] delays,
      int loop,
      int quality,
      int effort,
      double[] background,
      Path output) {
    Path folder;
    try {
      folder = Files.createTempDirectory(output.toAbsolutePath().getParent(), "frames");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      int frameHeight = roll.height() / frames;
      StringBuilder list = new StringBuilder("ffconcat version 1.0\n");
      int last = 0;
      for (int i = 0; i < frames; i++) {
        Path png = folder.resolve(String.format(Locale.ROOT, "frame-%04d.png", i));
        try (VipsImage frame =
                vips.extractArea(roll, 0, i * frameHeight, roll.width(), frameHeight);
            VipsImage opaque =
                frame.hasAlpha()
                    ? vips.operation("flatten")
                        .set("in", frame)
                        .set("background", background)
                        .image()
                    : vips.operation("copy").set("in", frame).image()) {
          vips.operation("pngsave")
              .set("in", opaque)
              .set("filename", png.toString())
              .set("compression", 1)
              .set("keep", Vips.KEEP_NONE)
              .run();
        } catch (VipsException e) {
          // the frames were decoded and made: only the scratch folder can refuse them (full)
          throw new PermanentStepFailure(
              StepErrorTypes.WORKER_FAILED,
              "the frames of the animated AVIF could not be written to the worker's temporary"
                  + " folder",
              e);
        }
        last = delay(delays, i);
        list.append("file '")
            .append(png.getFileName())
            .append("'\noption framerate 1000\nduration ")
            .append(String.format(Locale.ROOT, "%.3f", last / 1000.0))
            .append('\n');
      }
      Path listFile = Files.writeString(folder.resolve("frames.ffconcat"), list);
      Ffmpeg.shared()
          .run(
              Ffmpeg.Tool.FFMPEG,
              List.of(
                  "-v",
                  "error",
                  "-nostats",
                  "-y",
                  "-f",
                  "concat",
                  "-safe",
                  "0",
                  "-i",
                  listFile.toString(),
                  "-fps_mode",
                  "passthrough",
                  "-vf",
                  "scale=out_color_matrix=bt709:out_range=full",
                  "-pix_fmt",
                  "yuv420p",
                  "-colorspace",
                  "bt709",
                  "-color_primaries",
                  "bt709",
                  "-color_trc",
                  "iec61966-2-1",
                  "-color_range",
                  "pc",
                  "-c:v",
                  "libaom-av1",
                  "-crf",
                  Integer.toString((100 - quality) * 63 / 100),
                  "-b:v",
                  "0",
                  "-cpu-used",
                  Integer.toString(Math.min(FASTEST_CPU_USED, 9 - effort)),
                  "-bsf:v",
                  "setts=duration=if(eq(N\\,"
                      + (frames - 1)
                      + ")\\,"
                      + last
                      + "/1000/TB\\,DURATION)",
                  "-video_track_timescale",
                  "1000",
                  "-loop",
                  Integer.toString(loop),
                  "-f",
                  "avif",
                  output.toAbsolutePath().toString()),
              null,
              64 * 1024,
              TIMEOUT);
    } catch (FfmpegTimeoutException e) {
      throw e;
    } catch (FfmpegException e) {
      // FFmpeg read frames this step wrote: a failure would repeat on every delivery
      throw new PermanentStepFailure(
          StepErrorTypes.WORKER_FAILED,
          "FFmpeg could not encode the frames as an AVIF sequence",
          e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      delete(folder);
    }
  }

  /** Frame {@code i}'s delay in ms: the header's, 0 as {@value #ZERO_DELAY_MS}, none as that. */
  private static int delay(int[] delays, int i) {
    int delay = delays != null && i < delays.length ? delays[i] : 0;
    return delay <= 0 ? ZERO_DELAY_MS : delay;
  }

  private static void delete(Path folder) {
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      // left behind, it goes with the step's folder (StepDirectories), where the output is
    }
  }
}
