package dev.derive.worker.video;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.ffmpeg.Ffmpeg;
import dev.derive.worker.ffmpeg.FfmpegException;
import dev.derive.worker.ffmpeg.FfmpegTimeoutException;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Takes pictures out of a video with {@code ffmpeg}, confined to the input file ({@link
 * VideoProbe#confined}) and told its demuxer, and writes them as one PNG: a poster frame, or a
 * storyboard of frames spread evenly over the video and tiled into one image. FFmpeg applies the
 * display rotation and mirroring itself (its autorotate, which reads the whole display matrix), so
 * a portrait phone video gives a portrait picture; HDR (PQ or HLG) is tone-mapped to 8-bit sRGB
 * (zimg's linearisation, BT.2020 to BT.709 primaries, Hable's curve) instead of showing its code
 * values washed out.
 */
final class FrameGrabber {
  /** The most decoded frames the {@code thumbnail} filter may hold at once, in bytes. */
  static final long REPRESENTATIVE_FRAME_BYTES = 200L << 20;

  /** The most frames the {@code thumbnail} filter compares. */
  static final int REPRESENTATIVE_FRAMES = 50;

  /**
   * The fewest keyframes after the start that make the representative frame's candidates keyframes
   * only ({@code -skip_frame nokey}: 132 against 724 ms of CPU for a 1080p H.264 MP4, candidates
   * spread over more of the video); with fewer (a clip of one keyframe, a screen recording) every
   * frame is a candidate, so the pick is never just the first frame.
   */
  static final int MIN_KEYFRAME_CANDIDATES = 5;

  /**
   * Keyframes count from this long after the start: their times are decode times, the seek drops
   * frames whose presentation time is before the start, and an edit list shifts the two apart by a
   * frame or two.
   */
  static final double KEYFRAME_MARGIN_SECONDS = 0.5;

  /**
   * zlib's level for the PNG: 2, a fast deflate, costs half the default 6's time for a 1080p frame
   * (24 against 45 ms of CPU) and makes it 4 to 14% larger; the PNG is mostly an intermediate the
   * image capability reads back (docs/heic-and-video.md).
   */
  static final String PNG_COMPRESSION = "2";

  /** HDR to SDR: linear light, BT.709 primaries, Hable's curve, then BT.709/sRGB coding. */
  private static final String TONE_MAP =
      "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=hable:desat=0,"
          + "zscale=t=bt709:m=bt709:r=pc";

  private final VideoLimits limits;

  FrameGrabber(VideoLimits limits) {
    this.limits = limits;
  }

  /**
   * Writes one frame of {@code input} as a PNG to {@code output}: the frame at {@code atSeconds}
   * (clamped to the video), or without it a representative one (FFmpeg's {@code thumbnail} filter:
   * of up to {@value #REPRESENTATIVE_FRAMES} frames from a tenth into the video, the one closest to
   * their average colour histogram, so never a black or fade-in first frame; keyframes only when
   * the header lists at least {@value #MIN_KEYFRAME_CANDIDATES} after the start). {@code maxPixels}
   * bounds each decoded frame ({@code -max_pixels}, see {@link VideoProbe#declaredPixels}).
   */
  void poster(VideoInfo info, long maxPixels, Path input, Double atSeconds, Path output)
      throws IOException {
    List<String> filters = new ArrayList<>();
    double start;
    boolean keyframesOnly = false;
    if (atSeconds != null) {
      start = Math.max(0, Math.min(atSeconds, info.lastFrameSeconds()));
    } else {
      start = info.durationSeconds() >= 4 ? Math.min(info.durationSeconds() * 0.1, 60) : 0;
      int candidates = representativeFrames(info, start);
      int keyframes = info.keyframesFrom(start + KEYFRAME_MARGIN_SECONDS);
      if (keyframes >= MIN_KEYFRAME_CANDIDATES) {
        keyframesOnly = true;
        candidates = Math.min(candidates, keyframes);
      }
      filters.add("thumbnail=n=" + candidates);
    }
    if (info.hdr()) {
      filters.add(TONE_MAP);
    }
    filters.add("format=rgb24");
    List<String> args = new ArrayList<>(List.of("-v", "error", "-nostdin", "-y"));
    List<String> in = input(info, input, start, maxPixels);
    if (keyframesOnly) {
      in.addAll(in.size() - 2, List.of("-skip_frame", "nokey"));
    }
    args.addAll(in);
    args.addAll(
        List.of(
            "-map",
            "0:" + info.streamIndex(),
            "-an",
            "-sn",
            "-dn",
            "-vf",
            String.join(",", filters),
            "-frames:v",
            "1",
            "-c:v",
            "png",
            "-compression_level",
            PNG_COMPRESSION,
            "-f",
            "image2",
            "-update",
            "1",
            "file:" + output.toAbsolutePath()));
    run(args, output);
  }

  /**
   * Writes a storyboard of {@code input} to {@code output} as a PNG: {@code frames} frames, the
   * i-th taken at {@code (i + 0.5) / frames} of the video, each scaled to {@code tileWidth} pixels
   * wide (the height keeps the upright aspect ratio), tiled left to right, top to bottom, {@code
   * columns} to a row; {@code maxPixels} as for {@link #poster}.
   */
  void storyboard(
      VideoInfo info,
      long maxPixels,
      Path input,
      int frames,
      int columns,
      int tileWidth,
      Path output)
      throws IOException {
    int tileHeight = tileHeight(info, tileWidth);
    int rows = Math.ceilDiv(frames, columns);
    if ((long) tileWidth * tileHeight * columns * rows > limits.maxPixels()) {
      throw new PermanentStepFailure(
          StepErrorTypes.INVALID_STEP,
          "a storyboard of "
              + columns
              + "x"
              + rows
              + " tiles of "
              + tileWidth
              + "x"
              + tileHeight
              + " pixels is over the limit of "
              + limits.maxPixels()
              + " pixels");
    }
    List<String> args = new ArrayList<>(List.of("-v", "error", "-nostdin", "-y"));
    StringBuilder graph = new StringBuilder();
    for (int i = 0; i < frames; i++) {
      double at = info.lastFrameSeconds() * (i + 0.5) / frames;
      args.addAll(input(info, input, at, maxPixels));
      graph
          .append('[')
          .append(i)
          .append(':')
          .append(info.streamIndex())
          .append("]trim=end_frame=1,setpts=PTS-STARTPTS,");
      if (info.hdr()) {
        graph.append(TONE_MAP).append(',');
      }
      graph
          .append("scale=")
          .append(tileWidth)
          .append(':')
          .append(tileHeight)
          .append(":flags=lanczos,setsar=1,format=rgb24[v")
          .append(i)
          .append("];");
    }
    for (int i = 0; i < frames; i++) {
      graph.append("[v").append(i).append(']');
    }
    graph
        .append("concat=n=")
        .append(frames)
        .append(":v=1:a=0,tile=")
        .append(columns)
        .append('x')
        .append(rows)
        .append("[board]");
    args.addAll(
        List.of(
            "-filter_complex",
            graph.toString(),
            "-map",
            "[board]",
            "-frames:v",
            "1",
            "-c:v",
            "png",
            "-compression_level",
            PNG_COMPRESSION,
            "-f",
            "image2",
            "-update",
            "1",
            "file:" + output.toAbsolutePath()));
    run(args, output);
  }

  /** The height of a tile {@code tileWidth} wide, upright aspect ratio, even, at least 2. */
  static int tileHeight(VideoInfo info, int tileWidth) {
    return Math.max(2, (int) Math.round((double) tileWidth * info.height() / info.width() / 2) * 2);
  }

  /**
   * One input: its demuxer, the whitelists, the decoder's frame bound, a seek to {@code seconds}
   * and the file.
   */
  private static List<String> input(VideoInfo info, Path input, double seconds, long maxPixels) {
    List<String> args = new ArrayList<>(VideoProbe.confined());
    args.addAll(List.of("-f", info.demuxer(), "-max_pixels", String.valueOf(maxPixels)));
    if (seconds > 0) {
      args.addAll(List.of("-ss", String.format(Locale.ROOT, "%.3f", seconds)));
    }
    args.addAll(List.of("-i", VideoProbe.url(input)));
    return args;
  }

  /** How many frames the thumbnail filter compares: bounded by time left and by memory. */
  private static int representativeFrames(VideoInfo info, double start) {
    double rate = info.frameRate() > 0 ? info.frameRate() : 25;
    long left = (long) Math.ceil((info.durationSeconds() - start) * rate);
    long frameBytes = (long) info.codedWidth() * info.codedHeight() * 3;
    long byMemory = Math.max(1, REPRESENTATIVE_FRAME_BYTES / Math.max(1, frameBytes));
    return (int)
        Math.max(1, Math.min(REPRESENTATIVE_FRAMES, Math.min(byMemory, Math.max(1, left))));
  }

  private void run(List<String> args, Path output) throws IOException {
    try {
      Ffmpeg.shared().run(Ffmpeg.Tool.FFMPEG, args, null, 1 << 20, limits.timeout());
    } catch (FfmpegTimeoutException e) {
      throw VideoFailures.timeout(limits, e);
    } catch (FfmpegException e) {
      throw VideoFailures.undecodable(e);
    }
    if (!Files.exists(output) || Files.size(output) == 0) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT,
          "no picture of the video could be decoded: the file is damaged or cut short");
    }
  }
}
