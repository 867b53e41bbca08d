package dev.derive.worker.video;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.PermanentStepFailure;
import dev.derive.worker.runtime.StepTransformer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The video capability: {@value #POSTER} (one frame as PNG), {@value #STORYBOARD} (frames spread
 * over the video, tiled into one PNG) and {@value #INFO} (JSON: duration, upright size, frame rate,
 * codecs, bit rate, audio, rotation). FFmpeg reads the file in a separate process confined to it
 * ({@link VideoProbe}, {@link FrameGrabber}); the header is checked against {@link VideoLimits}
 * before any frame is decoded.
 */
public final class VideoTransformer implements StepTransformer {
  /** Name of the capability. */
  public static final String CAPABILITY = "video";

  /** One frame as PNG; parameter {@code at}: seconds, or a percentage such as {@code "50%"}. */
  public static final String POSTER = "poster";

  /** A sprite sheet; parameters {@code frames}, {@code columns}, {@code tileWidth}. */
  public static final String STORYBOARD = "storyboard";

  /** Media information as JSON. */
  public static final String INFO = "info";

  /** Storyboard defaults and bounds. */
  static final int DEFAULT_FRAMES = 9;

  static final int MAX_FRAMES = 100;
  static final int DEFAULT_TILE_WIDTH = 160;
  static final int MAX_TILE_WIDTH = 1920;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final VideoLimits limits;
  private final FrameGrabber grabber;

  public VideoTransformer(VideoLimits limits) {
    this.limits = limits;
    this.grabber = new FrameGrabber(limits);
  }

  @Override
  public String capability() {
    return CAPABILITY;
  }

  /** Runs {@link VideoSelfTest} in {@code scratch}. */
  @Override
  public void probe(Path scratch) throws IOException {
    VideoSelfTest.run(this, scratch);
  }

  /**
   * {@inheritDoc}
   *
   * @throws PermanentStepFailure {@code invalid-step} (not one known operation, a parameter out of
   *     range), {@code unsupported-input} (not a video container Derive reads, a playlist, no video
   *     stream), {@code corrupt-input}, {@code input-too-large} (frame size or duration over the
   *     limits), {@code timeout} (FFmpeg killed at its deadline)
   */
  @Override
  public void transform(StepMessage step, Path input, Path output) throws IOException {
    if (step.operations().size() != 1) {
      throw new PermanentStepFailure(
          StepErrorTypes.INVALID_STEP,
          "a video step has exactly one operation: poster, storyboard or info");
    }
    Operation operation = step.operations().getFirst();
    VideoInfo info = VideoProbe.probe(input, limits);
    switch (operation.operation()) {
      case POSTER -> grabber.poster(info, input, at(operation, info), output);
      case STORYBOARD -> {
        int frames = bounded(operation, "frames", DEFAULT_FRAMES, 1, MAX_FRAMES);
        int columns = bounded(operation, "columns", (int) Math.ceil(Math.sqrt(frames)), 1, frames);
        int tileWidth = bounded(operation, "tileWidth", DEFAULT_TILE_WIDTH, 16, MAX_TILE_WIDTH);
        grabber.storyboard(info, input, frames, columns, tileWidth, output);
      }
      case INFO -> Files.writeString(output, info(info).toPrettyString());
      default ->
          throw new PermanentStepFailure(
              StepErrorTypes.INVALID_STEP,
              "the video capability has no operation '" + operation.operation() + "'");
    }
  }

  /**
   * {@code at} in seconds, from seconds or a percentage of the duration; {@code null} if absent.
   */
  static Double at(Operation operation, VideoInfo info) {
    Object value = operation.params().get("at");
    if (value == null) {
      return null;
    }
    String text = value.toString().strip();
    try {
      double seconds =
          text.endsWith("%")
              ? Double.parseDouble(text.substring(0, text.length() - 1))
                  / 100
                  * info.durationSeconds()
              : Double.parseDouble(text);
      if (seconds >= 0 && Double.isFinite(seconds)) {
        return seconds;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new PermanentStepFailure(
        StepErrorTypes.INVALID_STEP,
        "'at' must be a time in seconds (e.g. 12.5) or a percentage of the video (e.g. \"50%\"), got "
            + text);
  }

  private static int bounded(Operation operation, String name, int fallback, int min, int max) {
    int value = operation.intParam(name, fallback);
    if (value < min || value > max) {
      throw new PermanentStepFailure(
          StepErrorTypes.INVALID_STEP,
          "'" + name + "' must be between " + min + " and " + max + ", got " + value);
    }
    return value;
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
