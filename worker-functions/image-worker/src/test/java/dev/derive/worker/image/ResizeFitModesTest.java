package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.encode;
import static dev.derive.worker.image.TestImages.resize;
import static dev.derive.worker.image.TestImages.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fit modes through the whole transformer: real decode, resample, crop or pad and encode. */
class ResizeFitModesTest {
  private static final Color A = new Color(220, 20, 20);
  private static final Color B = new Color(20, 200, 20);
  private static final Color C = new Color(20, 20, 220);
  private static final Color D = new Color(230, 230, 20);

  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  /** 400x200, four vertical bands of 100 pixels: A, B, C, D. */
  private static byte[] landscapeBands() throws IOException {
    return encode(TestImages.bands(400, 200, A, B, C, D), "png");
  }

  @Test
  void coverScalesToCoverTheBoxAndCropsTheCentre() throws IOException {
    // scaled to 200x100 (bands 50 wide), the centre 100x100 keeps bands B and C
    BufferedImage result =
        run(landscapeBands(), resize(100, 100, "cover", true), MediaTypes.IMAGE_PNG);

    assertThat(size(result)).isEqualTo("100x100");
    assertColour(result, 20, 50, B);
    assertColour(result, 80, 50, C);
  }

  @Test
  void coverOfAPortraitCropsTopAndBottom() throws IOException {
    byte[] portrait = encode(TestImages.quadrants(200, 400), "png");

    BufferedImage result = run(portrait, resize(100, 50, "cover", true), MediaTypes.IMAGE_PNG);

    // scaled to 100x200; the centre rows 75..125 straddle the top and bottom quadrants
    assertThat(size(result)).isEqualTo("100x50");
    assertColour(result, 10, 5, TestImages.TOP_LEFT);
    assertColour(result, 90, 45, TestImages.BOTTOM_RIGHT);
  }

  @Test
  void fillStretchesToTheBoxIgnoringTheAspectRatio() throws IOException {
    // every band keeps its share of the width: 25 pixels each
    BufferedImage result =
        run(landscapeBands(), resize(100, 100, "fill", true), MediaTypes.IMAGE_PNG);

    assertThat(size(result)).isEqualTo("100x100");
    assertColour(result, 10, 50, A);
    assertColour(result, 37, 50, B);
    assertColour(result, 62, 50, C);
    assertColour(result, 90, 50, D);
  }

  @Test
  void containPadsToTheBoxWithTheBackgroundColour() throws IOException {
    BufferedImage result =
        run(
            landscapeBands(),
            resize(100, 100, "contain", true),
            MediaTypes.IMAGE_JPEG,
            TestImages.background("#3366CC"));

    // scaled to 100x50 and centred: rows 0..24 and 75..99 are padding
    assertThat(size(result)).isEqualTo("100x100");
    assertColour(result, 0, 0, new Color(0x33, 0x66, 0xCC));
    assertColour(result, 99, 99, new Color(0x33, 0x66, 0xCC));
    assertColour(result, 10, 50, A);
    assertColour(result, 90, 50, D);
  }

  @Test
  void containPadsJpegWithWhiteByDefault() throws IOException {
    BufferedImage result =
        run(landscapeBands(), resize(100, 100, "contain", true), MediaTypes.IMAGE_JPEG);

    assertColour(result, 0, 0, Color.WHITE);
  }

  @Test
  void containPadsPngWithTransparencyByDefault() throws IOException {
    BufferedImage result =
        run(landscapeBands(), resize(100, 100, "contain", true), MediaTypes.IMAGE_PNG);

    assertThat(result.getColorModel().hasAlpha()).isTrue();
    assertThat(result.getRGB(0, 0) >>> 24).as("corner alpha").isZero();
    assertThat(result.getRGB(50, 50) >>> 24).as("image alpha").isEqualTo(0xFF);
  }

  @Test
  void containKeepsATranslucentBackgroundInPng() throws IOException {
    BufferedImage result =
        run(
            landscapeBands(),
            resize(100, 100, "contain", true),
            MediaTypes.IMAGE_PNG,
            TestImages.background("#ff000080"));

    assertThat(Integer.toHexString(result.getRGB(0, 0))).isEqualTo("80ff0000");
  }

  @Test
  void containFlattensATranslucentBackgroundOntoWhiteInJpeg() throws IOException {
    BufferedImage result =
        run(
            landscapeBands(),
            resize(100, 100, "contain", true),
            MediaTypes.IMAGE_JPEG,
            TestImages.background("#ff000080"));

    assertColour(result, 0, 0, new Color(255, 127, 127));
  }

  @Test
  void containOfASmallImageWithoutEnlargementPadsAroundTheUnscaledImage() throws IOException {
    byte[] small = encode(TestImages.bands(40, 20, A, D), "png");

    BufferedImage result =
        run(
            small,
            resize(100, 100, "contain", true),
            MediaTypes.IMAGE_PNG,
            TestImages.background("#000000"));

    // the 40x20 image sits at 30..69 x 40..59
    assertThat(size(result)).isEqualTo("100x100");
    assertColour(result, 29, 50, Color.BLACK);
    assertColour(result, 31, 50, A);
    assertColour(result, 68, 50, D);
    assertColour(result, 50, 39, Color.BLACK);
    assertColour(result, 50, 60, Color.BLACK);
  }

  @Test
  void coverOfASmallImageWithoutEnlargementIsNotEnlargedNorPadded() throws IOException {
    byte[] small = encode(TestImages.bands(120, 80, A, D), "png");

    BufferedImage result = run(small, resize(300, 300, "cover", true), MediaTypes.IMAGE_PNG);

    assertThat(size(result)).isEqualTo("120x80");
  }

  @Test
  void outsideCoversTheBoxWithoutCropping() throws IOException {
    BufferedImage result =
        run(landscapeBands(), resize(100, 100, "outside", true), MediaTypes.IMAGE_PNG);

    assertThat(size(result)).isEqualTo("200x100");
    assertColour(result, 10, 50, A);
    assertColour(result, 190, 50, D);
  }

  @Test
  void containPadsTheRotatedImage() throws IOException {
    // 400x200 turned to 200x400, scaled to 50x100, padded left and right
    BufferedImage result =
        run(
            landscapeBands(),
            resize(100, 100, "contain", true),
            MediaTypes.IMAGE_PNG,
            new Operation(ImageRecipe.ROTATE, Map.of("angle", 90)),
            TestImages.background("#000000"));

    assertThat(size(result)).isEqualTo("100x100");
    assertColour(result, 10, 50, Color.BLACK);
    assertColour(result, 90, 50, Color.BLACK);
    // clockwise: the left band A is now at the top
    assertColour(result, 50, 5, A);
    assertColour(result, 50, 95, D);
  }

  @Test
  void anOutputOverThePixelLimitAfterCoverScalingIsRefused() throws IOException {
    // 1000x1 covering 1000x1000 scales to 1 000 000 x 1000 before the crop
    byte[] strip = encode(new BufferedImage(1000, 1, BufferedImage.TYPE_INT_RGB), "png");

    assertThatThrownBy(
            () -> transform(strip, resize(1000, 1000, "cover", false), MediaTypes.IMAGE_PNG))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.OUTPUT_TOO_LARGE);
  }

  @Test
  void aBackgroundThatIsNotAHexColourIsAnInvalidStep() throws IOException {
    assertThatThrownBy(
            () ->
                transform(
                    landscapeBands(),
                    resize(100, 100, "contain", true),
                    MediaTypes.IMAGE_PNG,
                    TestImages.background("blue")))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.INVALID_STEP);
  }

  private BufferedImage run(byte[] input, Operation resize, String mediaType, Operation... more)
      throws IOException {
    BufferedImage result = ImageIO.read(transform(input, resize, mediaType, more).toFile());
    assertThat(result).as("output decodes").isNotNull();
    return result;
  }

  private Path transform(byte[] input, Operation resize, String mediaType, Operation... more)
      throws IOException {
    // the others before the resize, the background after it: the declared order
    List<Operation> operations = new ArrayList<>();
    Arrays.stream(more).filter(o -> !isBackground(o)).forEach(operations::add);
    operations.add(resize);
    Arrays.stream(more).filter(ResizeFitModesTest::isBackground).forEach(operations::add);
    operations.add(TestImages.encode(mediaType, 95));
    Path in = Files.createTempFile(dir, "in", ".bin");
    Path out = Files.createTempFile(dir, "out", ".bin");
    Files.write(in, input);
    transformer.transform(step(operations.toArray(Operation[]::new)), in, out);
    return out;
  }

  private static boolean isBackground(Operation operation) {
    return operation.operation().equals(ImageRecipe.BACKGROUND);
  }

  private static String size(BufferedImage image) {
    return image.getWidth() + "x" + image.getHeight();
  }

  /** Asserts the pixel is within a small distance of {@code expected} (JPEG, resampling). */
  private static void assertColour(BufferedImage image, int x, int y, Color expected) {
    Color actual = new Color(image.getRGB(x, y));
    int distance =
        Math.abs(actual.getRed() - expected.getRed())
            + Math.abs(actual.getGreen() - expected.getGreen())
            + Math.abs(actual.getBlue() - expected.getBlue());
    assertThat(distance)
        .as("pixel (%d,%d) is %s, expected about %s", x, y, actual, expected)
        .isLessThan(40);
  }
}
