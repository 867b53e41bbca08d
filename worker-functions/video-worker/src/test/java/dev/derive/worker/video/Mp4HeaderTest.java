package dev.derive.worker.video;

import static dev.derive.worker.ffmpeg.TestBoxes.box;
import static dev.derive.worker.ffmpeg.TestBoxes.concat;
import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.ffmpeg.TestPattern;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.imageio.ImageIO;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Mp4Header} reads what ffprobe reads from the corpus's MP4 and MOV files, and answers
 * nothing (so ffprobe is asked) for other containers and for hostile boxes: sizes past their
 * parent, counts past their box, nesting a hundred thousand deep, a cover picture, a fragmented
 * movie. A frame size over the limit in the header is refused before FFmpeg runs.
 */
class Mp4HeaderTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "video/sample.mp4",
        "video/sample_mdat_too_long.mp4",
        "video/sample_rotate_and_reflect.mp4",
        "video/dolbyVision-hdr.MOV",
        "video/hlg10-color-test.mp4"
      })
  void readsWhatFfprobeReads(String sample) throws IOException {
    Path file = samples().resolve(sample);
    VideoInfo ours = Mp4Header.read(file).orElseThrow();
    VideoInfo ffprobe = VideoProbe.probe(file, VideoLimits.DEFAULTS);

    assertThat(ours.demuxer()).isEqualTo(ffprobe.demuxer());
    assertThat(ours.streamIndex()).isEqualTo(ffprobe.streamIndex());
    assertThat(ours.codedWidth() + "x" + ours.codedHeight())
        .isEqualTo(ffprobe.codedWidth() + "x" + ffprobe.codedHeight());
    assertThat(ours.rotation()).isEqualTo(ffprobe.rotation());
    assertThat(ours.mirrored()).isEqualTo(ffprobe.mirrored());
    assertThat(ours.hdr()).isEqualTo(ffprobe.hdr());
    assertThat(ours.videoCodec()).isEqualTo(ffprobe.videoCodec());
    // mvhd's duration; ffprobe's also counts the tracks' edit list offsets: within two frames
    assertThat(ours.durationSeconds()).isCloseTo(ffprobe.durationSeconds(), within(0.07));
    assertThat(ours.frameRate()).isCloseTo(ffprobe.frameRate(), within(0.05));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "video/bear-vp9.webm",
        "video/sample.avi",
        "video/sample_with_srt.mkv",
        "video/sample_audio_only.mp4",
        "heic/arrow.heic"
      })
  void answersNothingForOtherContainersAndForNoVideoTrack(String sample) throws IOException {
    assertThat(Mp4Header.read(samples().resolve(sample))).isEmpty();
  }

  @Test
  void aBoxSizePastItsParentAnswersNothing() throws IOException {
    byte[] bytes = sample();
    ByteBuffer.wrap(bytes).putInt(offset(bytes, "tkhd"), 0xFFFFFFF0);
    assertThat(read(bytes)).isEmpty();

    bytes = sample();
    int stsd = offset(bytes, "stsd");
    ByteBuffer.wrap(bytes).putInt(stsd, 0x7FFFFFFF);
    assertThat(read(bytes)).isEmpty();
  }

  @Test
  void aMoovPastTheEndOfTheFileAnswersNothing() throws IOException {
    byte[] bytes = sample();
    ByteBuffer.wrap(bytes).putInt(offset(bytes, "moov"), Integer.MAX_VALUE);
    assertThat(read(bytes)).isEmpty();
  }

  /**
   * An {@code stts} declaring four billion entries in 16 bytes, an {@code stss} two billion
   * keyframes: refused, not looped over.
   */
  @Test
  void aCountPastItsBoxAnswersNothing() throws IOException {
    byte[] bytes = sample();
    ByteBuffer.wrap(bytes).putInt(offset(bytes, "stts") + 12, 0xFFFFFFFF);
    assertThat(read(bytes)).isEmpty();

    bytes = sample();
    ByteBuffer.wrap(bytes).putInt(offset(bytes, "stss") + 12, 0x7FFFFFFF);
    assertThat(read(bytes)).isEmpty();
  }

  /** 2^32 - 1 samples of 2^32 - 1 units each: a sum past a long, refused, not wrapped around. */
  @Test
  void aDurationSumPastALongAnswersNothing() throws IOException {
    byte[] bytes = sample();
    int stts = offset(bytes, "stts");
    ByteBuffer.wrap(bytes).putInt(stts + 16, 0xFFFFFFFF).putInt(stts + 20, 0xFFFFFFFF);
    assertThat(read(bytes)).isEmpty();
  }

  /** {@code trak} in {@code trak} 100,000 deep: read without recursion, no video track found. */
  @Test
  void deepNestingAnswersNothingWithoutRecursing() throws IOException {
    byte[] inner = box("free", new byte[0]);
    byte[] nested = new byte[100_000 * 8 + inner.length];
    ByteBuffer buffer = ByteBuffer.wrap(nested);
    for (int i = 0; i < 100_000; i++) {
      buffer.putInt(nested.length - 8 * i).put("trak".getBytes(StandardCharsets.US_ASCII));
    }
    buffer.put(inner);
    byte[] file =
        concat(
            box("ftyp", "isom\0\0\0\0".getBytes(StandardCharsets.US_ASCII)), box("moov", nested));
    assertThat(read(file)).isEmpty();
  }

  @Test
  void aMoovOverTheBoundIsLeftToFfprobe() throws IOException {
    byte[] file =
        concat(
            box("ftyp", "isom\0\0\0\0".getBytes(StandardCharsets.US_ASCII)),
            box("moov", new byte[Mp4Header.MAX_MOOV_BYTES + 1]));
    assertThat(read(file)).isEmpty();
  }

  /** A cover picture becomes an FFmpeg stream, which would shift the video's index. */
  @Test
  void aCoverPictureOrAFragmentedMovieIsLeftToFfprobe() throws IOException {
    byte[] bytes = sample();
    // sample.mp4's moov/udta/meta/ilst: rename its first item to covr
    int ilst = offset(bytes, "ilst");
    System.arraycopy("covr".getBytes(StandardCharsets.US_ASCII), 0, bytes, ilst + 12, 4);
    assertThat(read(bytes)).isEmpty();

    bytes = sample();
    System.arraycopy(
        "mvex".getBytes(StandardCharsets.US_ASCII), 0, bytes, offset(bytes, "iods") + 4, 4);
    assertThat(read(bytes)).isEmpty();
  }

  @Test
  void aTurnThatIsNotAQuarterIsLeftToFfprobe() throws IOException {
    byte[] bytes = sample();
    int matrix = offset(bytes, "tkhd") + 8 + 40;
    int half = (int) Math.round(Math.sqrt(0.5) * 65536);
    ByteBuffer.wrap(bytes)
        .putInt(matrix, half)
        .putInt(matrix + 4, half)
        .putInt(matrix + 12, -half)
        .putInt(matrix + 16, half);
    assertThat(read(bytes)).isEmpty();
  }

  /** A header declaring a 16K frame is {@code input-too-large} from Java, FFmpeg never started. */
  @Test
  void aSixteenKFrameInTheHeaderIsRefusedBeforeFfmpegRuns() throws IOException {
    byte[] bytes = sample();
    int entry = offset(bytes, "avc1", offset(bytes, "stsd"));
    ByteBuffer.wrap(bytes)
        .putShort(entry + 8 + 24, (short) 15360)
        .putShort(entry + 8 + 26, (short) 8640);
    assertTooLarge(
        Files.write(dir.resolve("16k.mp4"), bytes),
        "the video's frames are 15360x8640 pixels, over the limit of 33177600 pixels a frame");
  }

  @Test
  void aDurationOverTheLimitInTheHeaderIsRefusedBeforeFfmpegRuns() throws IOException {
    byte[] bytes = sample();
    // mvhd version 0: timescale 1000 at 12, duration at 16 of its body
    ByteBuffer.wrap(bytes).putInt(offset(bytes, "mvhd") + 8 + 16, 5 * 3600 * 1000);
    assertTooLarge(
        Files.write(dir.resolve("long.mp4"), bytes),
        "the video lasts 18000 s, over the limit of 14400 s");
  }

  /**
   * {@code file} is refused {@code input-too-large} with {@code detail} by the header reader (no
   * FFmpeg involved) and so by the poster, which reads the header first.
   */
  private void assertTooLarge(Path file, String detail) {
    for (ThrowingCallable call :
        List.<ThrowingCallable>of(
            () -> VideoProbe.header(file, VideoLimits.DEFAULTS),
            () ->
                new VideoTransformer(VideoLimits.DEFAULTS)
                    .transform(
                        VideoCorpusTest.step(VideoTransformer.POSTER, Map.of()),
                        file,
                        dir.resolve("refused.png")))) {
      assertThatThrownBy(call)
          .isInstanceOfSatisfying(
              PermanentStepFailure.class,
              e -> {
                assertThat(e.type()).isEqualTo(StepErrorTypes.INPUT_TOO_LARGE);
                assertThat(e.detail()).isEqualTo(detail);
              });
    }
    assertThat(dir.resolve("refused.png")).doesNotExist();
  }

  /**
   * A header that declares 320x240 over a 1280x720 bitstream: the decoder, bounded by the declared
   * size, refuses the frames instead of making them; the transformer then asks ffprobe, which reads
   * the bitstream's size, and the poster is the real 1280x720 frame.
   */
  @Test
  void aBitstreamLargerThanItsHeaderIsStoppedByTheDecodersBound() throws IOException {
    Path real =
        TestPattern.write(
            dir.resolve("720p.mp4"), 1280, 720, 10, 1, "mp4", List.of("-c:v", "mpeg4"));
    byte[] bytes = Files.readAllBytes(real);
    int entry = offset(bytes, "mp4v", offset(bytes, "stsd"));
    ByteBuffer.wrap(bytes)
        .putShort(entry + 8 + 24, (short) 320)
        .putShort(entry + 8 + 26, (short) 240);
    Path lying = Files.write(dir.resolve("lying.mp4"), bytes);
    VideoInfo declared = VideoProbe.header(lying, VideoLimits.DEFAULTS).orElseThrow();
    assertThat(declared.codedWidth() + "x" + declared.codedHeight()).isEqualTo("320x240");

    Path output = dir.resolve("poster.png");
    assertThatThrownBy(
            () ->
                new FrameGrabber(VideoLimits.DEFAULTS)
                    .poster(
                        declared,
                        VideoProbe.declaredPixels(declared, VideoLimits.DEFAULTS),
                        lying,
                        0.0,
                        output))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> assertThat(e.type()).isEqualTo(StepErrorTypes.CORRUPT_INPUT));

    Files.deleteIfExists(output);
    new VideoTransformer(VideoLimits.DEFAULTS)
        .transform(
            VideoCorpusTest.step(VideoTransformer.POSTER, Map.of("at", "0.5")), lying, output);
    BufferedImage poster = ImageIO.read(output.toFile());
    assertThat(poster.getWidth() + "x" + poster.getHeight()).isEqualTo("1280x720");
  }

  /**
   * A 10 s clip with a keyframe each second: the header lists them, and the representative poster
   * (from 1 s in) is taken among the keyframes only, so it is exactly one of the frames at 2..9 s.
   */
  @Test
  void theRepresentativeFrameIsAKeyframeWhenTheHeaderListsEnough() throws IOException {
    Path clip =
        TestPattern.write(
            dir.resolve("gop.mp4"), 320, 240, 10, 10, "mp4", List.of("-c:v", "mpeg4", "-g", "10"));
    VideoInfo info = Mp4Header.read(clip).orElseThrow();
    assertThat(info.keyframeSeconds())
        .containsExactly(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0);
    assertThat(info.keyframesFrom(1.5)).isEqualTo(8);

    Path output = dir.resolve("poster.png");
    new VideoTransformer(VideoLimits.DEFAULTS)
        .transform(VideoCorpusTest.step(VideoTransformer.POSTER, Map.of()), clip, output);
    BufferedImage poster = ImageIO.read(output.toFile());
    double closest = Double.MAX_VALUE;
    for (int second = 2; second <= 9; second++) {
      Path frame = dir.resolve("frame-" + second + ".png");
      new VideoTransformer(VideoLimits.DEFAULTS)
          .transform(
              VideoCorpusTest.step(VideoTransformer.POSTER, Map.of("at", String.valueOf(second))),
              clip,
              frame);
      closest =
          Math.min(closest, VideoCorpusTest.meanDifference(poster, ImageIO.read(frame.toFile())));
    }
    assertThat(closest).as("difference to the closest keyframe").isLessThan(0.5);
  }

  /** One keyframe (a GOP as long as the clip): every frame stays a candidate. */
  @Test
  void aClipOfOneKeyframeKeepsEveryFrameACandidate() throws IOException {
    Path clip =
        TestPattern.write(
            dir.resolve("one.mp4"),
            320,
            240,
            10,
            10,
            "mp4",
            List.of("-c:v", "mpeg4", "-g", "1000"));
    VideoInfo info = Mp4Header.read(clip).orElseThrow();
    assertThat(info.keyframeSeconds()).containsExactly(0.0);
    assertThat(info.keyframesFrom(1.5)).isZero();
  }

  private static byte[] sample() throws IOException {
    return Files.readAllBytes(samples().resolve("video/sample.mp4"));
  }

  private Optional<VideoInfo> read(byte[] bytes) throws IOException {
    return Mp4Header.read(Files.write(Files.createTempFile(dir, "header", ".mp4"), bytes));
  }

  /** Where the first box of {@code type} starts (its size field). */
  static int offset(byte[] bytes, String type) {
    return offset(bytes, type, 0);
  }

  /** Where the first box of {@code type} at or after {@code from} starts. */
  static int offset(byte[] bytes, String type, int from) {
    byte[] fourcc = type.getBytes(StandardCharsets.US_ASCII);
    outer:
    for (int i = from + 4; i + 4 <= bytes.length; i++) {
      for (int j = 0; j < 4; j++) {
        if (bytes[i + j] != fourcc[j]) {
          continue outer;
        }
      }
      return i - 4;
    }
    throw new AssertionError("no " + type + " box");
  }
}
