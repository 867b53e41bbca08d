package dev.derive.worker.video;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.Parameters;
import dev.derive.worker.runtime.PermanentStepFailure;
import dev.derive.worker.runtime.StepTransformer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The video capability: {@value #POSTER} (one frame as PNG), {@value #STORYBOARD} (frames spread
 * over the video, tiled into one PNG) and {@value #INFO} (JSON: duration, upright size, frame rate,
 * codecs, bit rate, audio, rotation). FFmpeg reads the file in a separate process confined to it
 * ({@link VideoProbe}, {@link FrameGrabber}); the header is checked against {@link VideoLimits}
 * before any frame is decoded.
 */
public final class VideoTransformer implements StepTransformer {
  /** One frame as PNG; parameter {@code at}: seconds, or a percentage such as {@code "50%"}. */
  public static final String POSTER = "poster";

  /** A sprite sheet; parameters {@code frames}, {@code columns}, {@code tileWidth} (declared). */
  public static final String STORYBOARD = "storyboard";

  /** Media information as JSON. */
  public static final String INFO = "info";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final VideoLimits limits;
  private final FrameGrabber grabber;

  public VideoTransformer(VideoLimits limits) {
    this.limits = limits;
    this.grabber = new FrameGrabber(limits);
  }

  /** Runs {@link VideoSelfTest} in {@code scratch}. */
  @Override
  public void probe(Path scratch) throws IOException {
    VideoSelfTest.run(this, scratch);
  }

  /**
   * {@inheritDoc}
   *
   * @throws PermanentStepFailure {@code unsupported-input} (not a video container Derive reads, a
   *     playlist, no video stream), {@code corrupt-input}, {@code input-too-large} (frame size or
   *     duration over the limits), {@code timeout} (FFmpeg killed at its deadline)
   */
  @Override
  public void transform(DeclaredStep step, Path input, Path output) throws IOException {
    Parameters operation = step.only();
    switch (operation.operation()) {
      case POSTER ->
          grab(
              input,
              (info, maxPixels) ->
                  grabber.poster(
                      info, maxPixels, input, at(operation.optionalString("at"), info), output));
      case STORYBOARD -> {
        int frames = operation.integer("frames");
        OptionalInt columns = operation.optionalInteger("columns");
        grab(
            input,
            (info, maxPixels) ->
                grabber.storyboard(
                    info,
                    maxPixels,
                    input,
                    frames,
                    Math.min(frames, columns.orElse((int) Math.ceil(Math.sqrt(frames)))),
                    operation.integer("tileWidth"),
                    output));
      }
      case INFO ->
          Files.writeString(output, info(VideoProbe.probe(input, limits)).toPrettyString());
      default -> throw new IllegalStateException("undeclared operation " + operation.operation());
    }
  }

  /**
   * Takes pictures of a video whose header is {@code info}, decoding frames of up to {@code
   * maxPixels}.
   */
  @FunctionalInterface
  private interface Grab {
    void run(VideoInfo info, long maxPixels) throws IOException;
  }

  /**
   * Runs {@code grab} with one FFmpeg process when {@link Mp4Header} reads the header (MP4, MOV),
   * each frame bounded by the size it declares; if FFmpeg then cannot decode what it was told (a
   * header that does not match its bitstream, a damaged file), or for any other container, the
   * header is read by ffprobe and {@code grab} runs again as before, frames bounded by the limit.
   */
  private void grab(Path input, Grab grab) throws IOException {
    Optional<VideoInfo> header = VideoProbe.header(input, limits);
    if (header.isPresent()) {
      try {
        grab.run(header.get(), VideoProbe.declaredPixels(header.get(), limits));
        return;
      } catch (PermanentStepFailure e) {
        if (!e.type().equals(StepErrorTypes.CORRUPT_INPUT)) {
          throw e;
        }
      }
    }
    grab.run(VideoProbe.probe(input, limits), limits.maxPixels());
  }

  /** {@code at} in seconds, from seconds or a percentage of the duration; empty if absent. */
  static Double at(Optional<String> at, VideoInfo info) {
    if (at.isEmpty()) {
      return null;
    }
    String text = at.get().strip();
    return text.endsWith("%")
        ? Double.parseDouble(text.substring(0, text.length() - 1)) / 100 * info.durationSeconds()
        : Double.parseDouble(text);
  }

  /** The {@value #INFO} document. */
  static ObjectNode info(VideoInfo info) {
    ObjectNode json = JSON.createObjectNode();
    json.put("container", info.container());
    json.put("durationSeconds", Math.round(info.durationSeconds() * 1000) / 1000.0);
    json.put("width", info.width());
    json.put("height", info.height());
    json.put("frameRate", Math.round(info.frameRate() * 1000) / 1000.0);
    json.put("videoCodec", info.videoCodec());
    if (info.audioCodec() == null) {
      json.putNull("audioCodec");
    } else {
      json.put("audioCodec", info.audioCodec());
    }
    json.put("hasAudio", info.audioCodec() != null);
    json.put("bitRate", info.bitRate());
    json.put("rotation", info.rotation());
    json.put("mirrored", info.mirrored());
    json.put("hdr", info.hdr());
    return json;
  }
}
