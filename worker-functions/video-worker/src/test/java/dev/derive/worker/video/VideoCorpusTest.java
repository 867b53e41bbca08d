package dev.derive.worker.video;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.ffmpeg.Ffmpeg;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every file of the corpus's {@code video/} folder through the video capability with real FFmpeg:
 * posters of the size and orientation the manifest's {@code special} column says, not black, HDR
 * tone-mapped; storyboards; media information; and the bad inputs, each with its stable type.
 */
class VideoCorpusTest {
  @TempDir Path dir;

  private final VideoTransformer transformer = new VideoTransformer(VideoLimits.DEFAULTS);

  @ParameterizedTest
  @CsvSource({
    "video/sample.mp4, 1080x720",
    "video/sample_mdat_too_long.mp4, 1080x720",
    "video/sample_rotate_and_reflect.mp4, 720x1080",
    "video/dolbyVision-hdr.MOV, 720x1280",
    "video/hlg10-color-test.mp4, 1920x1080",
    "video/bear-vp9.webm, 320x240",
    "video/sample_with_srt.mkv, 1080x720",
    "video/sample.avi, 960x400"
  })
  void posterHasTheUprightSizeAndIsNotBlack(String sample, String size) throws IOException {
    BufferedImage poster = run(sample, new Operation(VideoTransformer.POSTER, Map.of()));

    assertThat(poster.getWidth() + "x" + poster.getHeight()).isEqualTo(size);
    double[] stats = stats(poster);
    assertThat(stats[0]).as("mean luma of %s", sample).isGreaterThan(25);
    assertThat(stats[1]).as("contrast of %s (not one flat colour)", sample).isGreaterThan(8);
  }

  /**
   * The display matrix rotates by 90° and mirrors (a transpose): the poster is exactly the
   * transpose of the same frame of the unrotated original, not a plain quarter turn.
   */
  @Test
  void rotationAndReflectionAreBothApplied() throws IOException {
    Operation at = new Operation(VideoTransformer.POSTER, Map.of("at", "0.5"));
    BufferedImage plain = run("video/sample.mp4", at);
    BufferedImage turned = run("video/sample_rotate_and_reflect.mp4", at);

    assertThat(turned.getWidth()).isEqualTo(plain.getHeight());
    double transpose = 0;
    double quarterTurn = 0;
    int n = 0;
    for (int y = 0; y < turned.getHeight(); y += 16) {
      for (int x = 0; x < turned.getWidth(); x += 16) {
        transpose += difference(turned.getRGB(x, y), plain.getRGB(y, x));
        quarterTurn += difference(turned.getRGB(x, y), plain.getRGB(y, plain.getHeight() - 1 - x));
        n++;
      }
    }
    assertThat(transpose / n).isLessThan(2);
    assertThat(quarterTurn / n).isGreaterThan(20);
  }

  /** HLG and Dolby Vision/HLG 10-bit: tone-mapped, saturated, not the washed-out code values. */
  @ParameterizedTest
  @CsvSource({"video/hlg10-color-test.mp4", "video/dolbyVision-hdr.MOV"})
  void hdrPosterIsToneMappedNotWashedOut(String sample) throws IOException {
    BufferedImage poster = run(sample, new Operation(VideoTransformer.POSTER, Map.of("at", "0")));
    Path naive = dir.resolve("naive.png");
    Ffmpeg.shared()
        .run(
            Ffmpeg.Tool.FFMPEG,
            List.of(
                "-v",
                "error",
                "-y",
                "-i",
                "file:" + samples().resolve(sample),
                "-frames:v",
                "1",
                "-update",
                "1",
                "file:" + naive),
            null,
            1 << 20,
            Duration.ofSeconds(60));
    double[] toned = stats(poster);
    double[] flat = stats(ImageIO.read(naive.toFile()));

    assertThat(toned[2]).as("colourfulness").isGreaterThan(1.3 * flat[2]);
    assertThat(toned[1]).as("contrast").isGreaterThan(flat[1]);
  }

  @Test
  void posterAtAPercentageOrSecondsPicksThatFrame() throws IOException {
    BufferedImage start =
        run("video/sample.avi", new Operation(VideoTransformer.POSTER, Map.of("at", "0")));
    BufferedImage half =
        run("video/sample.avi", new Operation(VideoTransformer.POSTER, Map.of("at", "50%")));
    BufferedImage seconds =
        run("video/sample.avi", new Operation(VideoTransformer.POSTER, Map.of("at", "2.0435")));

    assertThat(meanDifference(half, seconds)).isLessThan(1);
    assertThat(meanDifference(start, half)).isGreaterThan(5);
  }

  /**
   * A generated 4 s clip whose red level rises with time (255 t / 4): each tile of a 4-frame
   * storyboard shows the frame at {@code (i + 0.5) / 4} of the video, left to right, top to bottom.
   */
  @Test
  void storyboardTilesFramesSpreadOverTheVideo() throws IOException {
    Path ramp = dir.resolve("ramp.mp4");
    Ffmpeg.shared()
        .run(
            Ffmpeg.Tool.FFMPEG,
            List.of(
                "-v",
                "error",
                "-y",
                "-f",
                "lavfi",
                "-i",
                "color=c=black:s=320x240:r=10:d=4,format=rgb24,geq=r='255*T/4':g='64':b='64'",
                "-c:v",
                "mpeg4",
                "-q:v",
                "2",
                "file:" + ramp),
            null,
            1 << 20,
            Duration.ofSeconds(60));
    Path output = dir.resolve("board.png");
    transformer.transform(
        step(VideoTransformer.STORYBOARD, Map.of("frames", 4, "columns", 2, "tileWidth", 160)),
        ramp,
        output);
    BufferedImage board = ImageIO.read(output.toFile());

    assertThat(board.getWidth() + "x" + board.getHeight()).isEqualTo("320x240");
    double last = 4 - 0.15; // the last frame starts at 3.9 s
    for (int i = 0; i < 4; i++) {
      BufferedImage tile = board.getSubimage((i % 2) * 160, (i / 2) * 120, 160, 120);
      double red = 0;
      for (int y = 10; y < 110; y += 10) {
        for (int x = 10; x < 150; x += 10) {
          red += (tile.getRGB(x, y) >> 16) & 0xFF;
        }
      }
      red /= 140;
      assertThat(red)
          .as("red of tile %d", i)
          .isCloseTo(255 * last * (i + 0.5) / 4 / 4, within(14.0));
    }
  }

  @Test
  void storyboardOfAPortraitVideoHasPortraitTiles() throws IOException {
    BufferedImage board =
        run(
            "video/dolbyVision-hdr.MOV",
            new Operation(
                VideoTransformer.STORYBOARD, Map.of("frames", 3, "columns", 3, "tileWidth", 90)));
    assertThat(board.getWidth() + "x" + board.getHeight()).isEqualTo("270x160");
  }

  @Test
  void infoDescribesTheVideoUpright() throws IOException {
    JsonNode info = info("video/sample_rotate_and_reflect.mp4");
    assertThat(info.path("width").asInt()).isEqualTo(720);
    assertThat(info.path("height").asInt()).isEqualTo(1080);
    assertThat(info.path("rotation").asInt()).isEqualTo(90);
    assertThat(info.path("mirrored").asBoolean()).isTrue();
    assertThat(info.path("videoCodec").asText()).isEqualTo("h264");
    assertThat(info.path("audioCodec").asText()).isEqualTo("aac");
    assertThat(info.path("hasAudio").asBoolean()).isTrue();
    assertThat(info.path("durationSeconds").asDouble()).isBetween(1.0, 1.1);
    assertThat(info.path("frameRate").asDouble()).isBetween(29.9, 30.0);
    assertThat(info.path("bitRate").asLong()).isPositive();

    JsonNode bear = info("video/bear-vp9.webm");
    assertThat(bear.path("hasAudio").asBoolean()).isFalse();
    assertThat(bear.path("videoCodec").asText()).isEqualTo("vp9");
    assertThat(info("video/hlg10-color-test.mp4").path("hdr").asBoolean()).isTrue();
  }

  @Test
  void audioOnlyIsUnsupportedInputWithNoVideoStream() {
    assertFails(
        "video/sample_audio_only.mp4",
        StepErrorTypes.UNSUPPORTED_INPUT,
        "the file has no video stream (it holds AAC audio only)");
  }

  @Test
  void aFileCutShortIsCorruptInput() throws IOException {
    Path cut = dir.resolve("cut.webm");
    Files.write(
        cut,
        java.util.Arrays.copyOf(Files.readAllBytes(samples().resolve("video/bear-vp9.webm")), 600));
    assertThatThrownBy(
            () ->
                transformer.transform(
                    step(VideoTransformer.POSTER, Map.of()), cut, dir.resolve("out.png")))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> {
              assertThat(e.type()).isEqualTo(StepErrorTypes.CORRUPT_INPUT);
              assertThat(e.detail())
                  .contains("damaged or cut short")
                  .doesNotContain("/", "Exception");
            });
  }

  /** A 15360x8640 (16K) MJPEG frame in Matroska is refused from its header, in seconds. */
  @Test
  void aSixteenKFrameIsRefusedBeforeDecoding() throws IOException {
    Path big = dir.resolve("16k.mkv");
    Ffmpeg.shared()
        .run(
            Ffmpeg.Tool.FFMPEG,
            List.of(
                "-v",
                "error",
                "-y",
                "-f",
                "lavfi",
                "-i",
                "color=black:s=15360x8640:r=1:d=1",
                "-frames:v",
                "1",
                "-c:v",
                "mjpeg",
                "-q:v",
                "31",
                "file:" + big),
            null,
            1 << 20,
            Duration.ofSeconds(120));
    long start = System.nanoTime();
    assertThatThrownBy(
            () ->
                transformer.transform(
                    step(VideoTransformer.POSTER, Map.of()), big, dir.resolve("out.png")))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> {
              assertThat(e.type()).isEqualTo(StepErrorTypes.INPUT_TOO_LARGE);
              assertThat(e.detail())
                  .isEqualTo(
                      "the video's frames are 15360x8640 pixels, over the limit of 33177600 pixels a frame");
            });
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void aVideoLongerThanTheLimitIsRefusedBeforeDecoding() {
    VideoTransformer strict =
        new VideoTransformer(
            new VideoLimits(VideoLimits.DEFAULT_MAX_PIXELS, 2, Duration.ofSeconds(60)));
    assertThatThrownBy(
            () ->
                strict.transform(
                    step(VideoTransformer.POSTER, Map.of()),
                    samples().resolve("video/sample.avi"),
                    dir.resolve("out.png")))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> {
              assertThat(e.type()).isEqualTo(StepErrorTypes.INPUT_TOO_LARGE);
              assertThat(e.detail()).isEqualTo("the video lasts 4 s, over the limit of 2 s");
            });
  }

  /** A run past its deadline is killed: the step fails with {@code timeout}, no FFmpeg is left. */
  @Test
  void aDecodeThatOverrunsIsKilledAtItsDeadline() {
    VideoTransformer hurried =
        new VideoTransformer(
            new VideoLimits(VideoLimits.DEFAULT_MAX_PIXELS, 3600, Duration.ofMillis(400)));
    long start = System.nanoTime();
    assertThatThrownBy(
            () ->
                hurried.transform(
                    step(VideoTransformer.STORYBOARD, Map.of("frames", 60, "tileWidth", 640)),
                    samples().resolve("video/hlg10-color-test.mp4"),
                    dir.resolve("out.png")))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> {
              assertThat(e.type()).isEqualTo(StepErrorTypes.TIMEOUT);
              assertThat(e.detail())
                  .isEqualTo("decoding the video took longer than 0 s and was stopped");
            });
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(
            ProcessHandle.current()
                .descendants()
                .filter(p -> p.info().command().orElse("").endsWith("/ffmpeg")))
        .isEmpty();
  }

  /** Every file of the manifest's video/ folder has its expectation here. */
  @Test
  void everyVideoOfTheManifestHasAnExpectation() throws IOException {
    List<String> videos =
        Files.readAllLines(samples().resolve("MANIFEST.tsv")).stream()
            .map(line -> line.split("\t")[0])
            .filter(name -> name.startsWith("video/"))
            .toList();
    assertThat(videos)
        .containsExactlyInAnyOrder(
            "video/sample.mp4",
            "video/sample_mdat_too_long.mp4",
            "video/sample_rotate_and_reflect.mp4",
            "video/dolbyVision-hdr.MOV",
            "video/hlg10-color-test.mp4",
            "video/bear-vp9.webm",
            "video/sample_with_srt.mkv",
            "video/sample.avi",
            "video/sample_audio_only.mp4");
    try (Stream<Path> files = Files.list(samples().resolve("video"))) {
      assertThat(files.map(f -> "video/" + f.getFileName()).toList())
          .containsExactlyInAnyOrderElementsOf(videos);
    }
  }

  private void assertFails(String sample, String type, String detail) {
    assertThatThrownBy(() -> run(sample, new Operation(VideoTransformer.POSTER, Map.of())))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> {
              assertThat(e.type()).isEqualTo(type);
              assertThat(e.detail()).startsWith(detail);
            });
  }

  private BufferedImage run(String sample, Operation operation) throws IOException {
    Path output = Files.createTempFile(dir, "out", ".png");
    transformer.transform(step(operation), samples().resolve(sample), output);
    BufferedImage image = ImageIO.read(output.toFile());
    assertThat(image).as("the PNG of %s", sample).isNotNull();
    return image;
  }

  private JsonNode info(String sample) throws IOException {
    Path output = Files.createTempFile(dir, "info", ".json");
    transformer.transform(step(VideoTransformer.INFO, Map.of()), samples().resolve(sample), output);
    return new ObjectMapper().readTree(output.toFile());
  }

  static StepMessage step(String operation, Map<String, Object> params) {
    return step(new Operation(operation, params));
  }

  static StepMessage step(Operation operation) {
    return new StepMessage(
        "0".repeat(64),
        0,
        1,
        "video",
        List.of(operation),
        new ObjectRef("bucket", "in", null),
        "video/mp4",
        new ObjectRef("bucket", "out", null),
        operation.operation().equals(VideoTransformer.INFO)
            ? "application/json"
            : MediaTypes.IMAGE_PNG,
        "trace");
  }

  /** Mean luma, its standard deviation, mean chroma (|r - g| + |g - b|). */
  static double[] stats(BufferedImage image) {
    double sum = 0;
    double sum2 = 0;
    double chroma = 0;
    int n = 0;
    for (int y = 0; y < image.getHeight(); y += 2) {
      for (int x = 0; x < image.getWidth(); x += 2) {
        int p = image.getRGB(x, y);
        int r = (p >> 16) & 0xFF;
        int g = (p >> 8) & 0xFF;
        int b = p & 0xFF;
        double l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        sum += l;
        sum2 += l * l;
        chroma += Math.abs(r - g) + Math.abs(g - b);
        n++;
      }
    }
    double mean = sum / n;
    return new double[] {mean, Math.sqrt(Math.max(0, sum2 / n - mean * mean)), chroma / n};
  }

  static double meanDifference(BufferedImage a, BufferedImage b) {
    assertThat(a.getWidth() + "x" + a.getHeight()).isEqualTo(b.getWidth() + "x" + b.getHeight());
    double sum = 0;
    int n = 0;
    for (int y = 0; y < a.getHeight(); y += 2) {
      for (int x = 0; x < a.getWidth(); x += 2) {
        sum += difference(a.getRGB(x, y), b.getRGB(x, y));
        n++;
      }
    }
    return sum / n;
  }

  private static double difference(int p, int q) {
    double sum = 0;
    for (int shift = 0; shift <= 16; shift += 8) {
      sum += Math.abs(((p >> shift) & 0xFF) - ((q >> shift) & 0xFF));
    }
    return sum / 3;
  }
}
