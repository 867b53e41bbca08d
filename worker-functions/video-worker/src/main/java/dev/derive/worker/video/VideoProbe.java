package dev.derive.worker.video;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.ffmpeg.Ffmpeg;
import dev.derive.worker.ffmpeg.FfmpegException;
import dev.derive.worker.ffmpeg.FfmpegTimeoutException;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads a video's header with ffprobe, opening the one input file only: the protocol whitelist is
 * {@code file} and the demuxer whitelist {@link #DEMUXERS}, so a playlist (HLS, DASH, {@code
 * concat}) that names other files or URLs is never followed, not even probed as what it is. Then
 * checks the limits ({@link VideoLimits}) from the header, before any frame is decoded. For an MP4
 * or MOV, {@link #header} reads the header in Java instead ({@link Mp4Header}), sparing the poster
 * and storyboard a process (docs/heic-and-video.md).
 */
final class VideoProbe {
  /**
   * The demuxers FFmpeg may use: containers that carry their media inside the file
   * (MP4/MOV/M4V/3GP, Matroska/WebM, AVI, FLV, MPEG-TS, MPEG-PS, ASF/WMV, Ogg). Not HLS, DASH,
   * concat, image2 or any device; the MOV demuxer's external data references stay off (its
   * default).
   */
  static final String DEMUXERS = "mov,matroska,avi,flv,mpegts,mpeg,asf,ogg";

  /** The most ffprobe may print, in bytes. */
  private static final long MAX_PROBE_OUTPUT = 4 << 20;

  private static final ObjectMapper JSON = new ObjectMapper();

  private VideoProbe() {}

  /** The arguments that confine FFmpeg to {@code input}: protocols and demuxers whitelisted. */
  static List<String> confined() {
    return List.of("-protocol_whitelist", "file", "-format_whitelist", DEMUXERS);
  }

  /** {@code input} as FFmpeg must name it: a file URL, so no name is read as a protocol. */
  static String url(Path input) {
    return "file:" + input.toAbsolutePath();
  }

  /**
   * Reads {@code input}'s header and checks it against {@code limits}.
   *
   * @throws PermanentStepFailure {@code unsupported-input} (not a container Derive reads, a
   *     playlist, no video stream), {@code corrupt-input} (damaged or cut short), {@code
   *     input-too-large} (frame or duration over the limits)
   */
  static VideoInfo probe(Path input, VideoLimits limits) throws IOException {
    byte[] json;
    try {
      json =
          Ffmpeg.shared()
              .run(
                  Ffmpeg.Tool.FFPROBE,
                  concat(
                      List.of("-v", "error"),
                      confined(),
                      List.of(
                          "-show_entries",
                          "format=format_name,duration,bit_rate:stream=index,codec_type,codec_name,"
                              + "width,height,avg_frame_rate,r_frame_rate,nb_frames,color_transfer"
                              + ":stream_disposition=attached_pic"
                              + ":stream_side_data=rotation,displaymatrix",
                          "-of",
                          "json",
                          url(input))),
                  null,
                  MAX_PROBE_OUTPUT,
                  limits.timeout());
    } catch (FfmpegTimeoutException e) {
      throw VideoFailures.timeout(limits, e);
    } catch (FfmpegException e) {
      throw VideoFailures.unreadable(e);
    }
    VideoInfo info = parse(JSON.readTree(json));
    check(info, limits);
    return info;
  }

  /**
   * The header of {@code input} read in Java when it is an MP4/MOV that {@link Mp4Header} is
   * certain of, checked against {@code limits}; empty otherwise (then {@link #probe} asks ffprobe).
   *
   * @throws PermanentStepFailure {@code input-too-large} (frame or duration over the limits)
   */
  static Optional<VideoInfo> header(Path input, VideoLimits limits) throws IOException {
    Optional<VideoInfo> info = Mp4Header.read(input);
    info.ifPresent(header -> check(header, limits));
    return info;
  }

  /**
   * The most pixels a decoded frame may have when the frame size came from a header FFmpeg did not
   * read ({@link Mp4Header}): the declared size with room for the decoder's alignment (a width
   * padded to 64 pixels and more, a height to 16), never over the limit. FFmpeg's decoder is given
   * it as {@code -max_pixels}, so a bitstream larger than its header claims fails to decode instead
   * of filling memory.
   */
  static long declaredPixels(VideoInfo info, VideoLimits limits) {
    return Math.min(
        limits.maxPixels(), (long) (info.codedWidth() + 128) * (info.codedHeight() + 64));
  }

  static VideoInfo parse(JsonNode root) {
    JsonNode format = root.path("format");
    String container = format.path("format_name").asText("");
    JsonNode video = null;
    String audio = null;
    for (JsonNode stream : root.path("streams")) {
      String type = stream.path("codec_type").asText();
      if (type.equals("video")
          && video == null
          && stream.path("disposition").path("attached_pic").asInt() == 0) {
        video = stream;
      } else if (type.equals("audio") && audio == null) {
        audio = stream.path("codec_name").asText("unknown");
      }
    }
    if (video == null) {
      throw new PermanentStepFailure(
          StepErrorTypes.UNSUPPORTED_INPUT,
          "the file has no video stream"
              + (audio != null
                  ? " (it holds " + audio.toUpperCase(Locale.ROOT) + " audio only)"
                  : "")
              + ": there is no picture to make a poster, storyboard or video information of");
    }
    int rotation = 0;
    boolean mirrored = false;
    for (JsonNode side : video.path("side_data_list")) {
      if (side.has("rotation")) {
        rotation = Math.floorMod(-(int) Math.round(side.path("rotation").asDouble()), 360);
      }
      if (side.has("displaymatrix")) {
        mirrored = determinant(side.path("displaymatrix").asText()) < 0;
      }
    }
    return new VideoInfo(
        container.split(",")[0],
        container,
        format.path("duration").asDouble(0),
        format.path("bit_rate").asLong(0),
        video.path("index").asInt(),
        video.path("codec_name").asText("unknown"),
        video.path("width").asInt(0),
        video.path("height").asInt(0),
        rotation,
        mirrored,
        rate(video.path("avg_frame_rate").asText(""), video.path("r_frame_rate").asText("")),
        video.path("nb_frames").asLong(0),
        video.path("color_transfer").asText("unknown"),
        audio,
        null);
  }

  /** The frame rate of an FFmpeg rational ({@code 30000/1001}), the average if known. */
  private static double rate(String average, String real) {
    for (String text : List.of(average, real)) {
      String[] parts = text.split("/");
      if (parts.length == 2) {
        try {
          double num = Double.parseDouble(parts[0]);
          double den = Double.parseDouble(parts[1]);
          if (num > 0 && den > 0) {
            return num / den;
          }
        } catch (NumberFormatException e) {
          // try the next
        }
      }
    }
    return 0;
  }

  /**
   * The determinant of the 2x2 part of ffprobe's printed display matrix (rows {@code a b u}, {@code
   * c d v}): negative when the picture is mirrored as well as turned.
   */
  static double determinant(String matrix) {
    double[] values = new double[9];
    int n = 0;
    for (String line : matrix.strip().split("\n")) {
      String[] cells = line.substring(line.indexOf(':') + 1).trim().split("\\s+");
      for (String cell : cells) {
        if (n < 9 && !cell.isEmpty()) {
          values[n++] = Double.parseDouble(cell);
        }
      }
    }
    return n < 9 ? 1 : values[0] * values[4] - values[1] * values[3];
  }

  private static void check(VideoInfo info, VideoLimits limits) {
    if (info.codedWidth() <= 0 || info.codedHeight() <= 0) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT,
          "the video stream declares no frame size: the file is damaged or cut short");
    }
    if ((long) info.codedWidth() * info.codedHeight() > limits.maxPixels()) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          "the video's frames are "
              + info.codedWidth()
              + "x"
              + info.codedHeight()
              + " pixels, over the limit of "
              + limits.maxPixels()
              + " pixels a frame");
    }
    if (info.durationSeconds() > limits.maxSeconds()) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          String.format(
              Locale.ROOT,
              "the video lasts %.0f s, over the limit of %.0f s",
              info.durationSeconds(),
              limits.maxSeconds()));
    }
  }

  @SafeVarargs
  static List<String> concat(List<String>... parts) {
    return java.util.Arrays.stream(parts).flatMap(List::stream).toList();
  }
}
