package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import dev.derive.worker.runtime.SampleCorpus;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Rotate, flip, flop, greyscale and the added output formats, on a four-colour test image. */
class GeometryTest {
  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  @TempDir Path dir;

  @Test
  void rotate90TurnsClockwiseAndFitsTheBoxToTheTurnedImage() throws IOException {
    BufferedImage out =
        run(
            TestImages.quadrants(400, 200),
            op(ImageRecipe.ROTATE, Map.of("angle", 90)),
            TestImages.resize(100, 100),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));

    assertThat(out.getWidth()).isEqualTo(50);
    assertThat(out.getHeight()).isEqualTo(100);
    // Clockwise: the bottom-left quadrant comes to the top left.
    assertNear(out, 5, 5, TestImages.BOTTOM_LEFT);
    assertNear(out, 45, 5, TestImages.TOP_LEFT);
  }

  /**
   * The one rule for order (issue 27): a step applies its operations in the order the declaration
   * lists them, and the image declaration lists rotate before resize because that is what the
   * worker does. A 400x200 image rotated 90 degrees and fitted inside 200x100 is 50x100; resizing
   * first, as the declaration's old order said, would have made 200x100 and then 100x200.
   */
  @Test
  void theDeclaredOrderIsTheOrderApplied() throws IOException {
    assertThat(TestImages.DECLARATION.operations())
        .extracting(o -> o.name())
        .containsSubsequence(ImageRecipe.CROP, ImageRecipe.ROTATE, ImageRecipe.RESIZE);
    BufferedImage out =
        run(
            TestImages.quadrants(400, 200),
            op(ImageRecipe.ROTATE, Map.of("angle", 90)),
            TestImages.resize(200, 100),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));

    assertThat(out.getWidth()).isEqualTo(50);
    assertThat(out.getHeight()).isEqualTo(100);
    assertThatThrownBy(
            () ->
                run(
                    TestImages.quadrants(400, 200),
                    TestImages.resize(200, 100),
                    op(ImageRecipe.ROTATE, Map.of("angle", 90)),
                    TestImages.encode(MediaTypes.IMAGE_PNG, 85)))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            f -> {
              assertThat(f.type()).isEqualTo(StepErrorTypes.INVALID_STEP);
              assertThat(f.detail()).contains("declared order");
            });
  }

  @Test
  void flopMirrorsLeftToRightAndFlipTopToBottom() throws IOException {
    BufferedImage flopped =
        run(
            TestImages.quadrants(80, 60),
            op(ImageRecipe.FLOP, Map.of()),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));
    BufferedImage flipped =
        run(
            TestImages.quadrants(80, 60),
            op(ImageRecipe.FLIP, Map.of()),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));

    assertNear(flopped, 5, 5, TestImages.TOP_RIGHT);
    assertNear(flipped, 5, 5, TestImages.BOTTOM_LEFT);
  }

  @Test
  void greyscaleDropsColour() throws IOException {
    BufferedImage out =
        run(
            TestImages.quadrants(80, 60),
            op(ImageRecipe.GREYSCALE, Map.of()),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));

    int rgb = out.getRGB(5, 5);
    assertThat((rgb >> 16) & 0xFF).isEqualTo((rgb >> 8) & 0xFF).isEqualTo(rgb & 0xFF);
  }

  /**
   * Greyscale stays in libvips for a JPEG (a libvips decode) and keeps the Java code's values:
   * every pixel is {@code Math.round(0.299 R + 0.587 G + 0.114 B)} of the same decode without
   * greyscale, exactly (libvips' own {@code colourspace b-w} and {@code recomb} would differ by one
   * in places).
   */
  @Test
  void greyscaleOfALibvipsDecodeIsTheBt601LumaRoundedAsJavaRoundsIt() throws IOException {
    BufferedImage noise = new BufferedImage(96, 64, BufferedImage.TYPE_INT_RGB);
    java.util.Random random = new java.util.Random(29);
    for (int y = 0; y < noise.getHeight(); y++) {
      for (int x = 0; x < noise.getWidth(); x++) {
        noise.setRGB(x, y, random.nextInt(0x1000000));
      }
    }
    Path input = Files.write(dir.resolve("noise.jpg"), TestImages.encode(noise, "jpg"));
    BufferedImage colour = runOn(input, TestImages.encode(MediaTypes.IMAGE_PNG, 85));
    BufferedImage grey =
        runOn(
            input,
            op(ImageRecipe.GREYSCALE, Map.of()),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));

    int differing = 0;
    for (int y = 0; y < colour.getHeight(); y++) {
      for (int x = 0; x < colour.getWidth(); x++) {
        int rgb = colour.getRGB(x, y);
        long luma =
            Math.round(
                0.299 * ((rgb >> 16) & 0xFF) + 0.587 * ((rgb >> 8) & 0xFF) + 0.114 * (rgb & 0xFF));
        int expected = (int) (luma << 16 | luma << 8 | luma);
        if ((grey.getRGB(x, y) & 0xFFFFFF) != expected) {
          differing++;
        }
      }
    }
    assertThat(differing).as("pixels whose grey is not Math.round of the luma").isZero();
  }

  @Test
  void encodesGif() throws IOException {
    BufferedImage out =
        run(
            TestImages.quadrants(120, 90),
            TestImages.resize(60, 60),
            TestImages.encode(MediaTypes.IMAGE_GIF, 85));

    assertThat(out.getWidth()).isEqualTo(60);
    assertThat(out.getHeight()).isEqualTo(45);
    assertNear(out, 5, 5, TestImages.TOP_LEFT);
  }

  /** The image declaration writes no BMP or TIFF, so the worker is never asked to (issue 27). */
  @ParameterizedTest
  @ValueSource(strings = {MediaTypes.IMAGE_BMP, MediaTypes.IMAGE_TIFF})
  void aFormatTheDeclarationDoesNotWriteIsAnInvalidStep(String mediaType) {
    assertThatThrownBy(
            () ->
                run(
                    TestImages.quadrants(120, 90),
                    TestImages.resize(60, 60),
                    TestImages.encode(mediaType, 85)))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            f -> assertThat(f.type()).isEqualTo(StepErrorTypes.INVALID_STEP));
  }

  @Test
  void rotationByAnotherAngleIsAnInvalidStep() {
    assertThatThrownBy(
            () ->
                run(
                    TestImages.quadrants(10, 10),
                    op(ImageRecipe.ROTATE, Map.of("angle", 45)),
                    TestImages.encode(MediaTypes.IMAGE_PNG, 85)))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.INVALID_STEP);
  }

  @ParameterizedTest
  @ValueSource(strings = {"other-images/multipage.tiff", "other-images/g4-multi.tiff"})
  void decodesTheRequestedTiffPage(String sample) throws IOException {
    Path source = SampleCorpus.samples().resolve(sample);
    Path output = Files.createTempFile(dir, "page", ".png");

    transformer.transform(
        TestImages.step(
            op(ImageRecipe.PAGE, Map.of("page", 2)), TestImages.encode(MediaTypes.IMAGE_PNG, 85)),
        source,
        output);

    assertThat(ImageIO.read(output.toFile())).isNotNull();
    assertThatThrownBy(
            () ->
                transformer.transform(
                    TestImages.step(op(ImageRecipe.PAGE, Map.of("page", 1000))), source, output))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.INVALID_STEP);
  }

  private BufferedImage run(BufferedImage image, Operation... operations) throws IOException {
    Path input = Files.write(dir.resolve("in.png"), TestImages.encode(image, "png"));
    Path output = Files.createTempFile(dir, "out", ".img");
    transformer.transform(TestImages.step(operations), input, output);
    BufferedImage decoded = ImageIO.read(output.toFile());
    assertThat(decoded).as("output decodes").isNotNull();
    return decoded;
  }

  private BufferedImage runOn(Path input, Operation... operations) throws IOException {
    Path output = Files.createTempFile(dir, "out", ".png");
    transformer.transform(TestImages.step(operations), input, output);
    return ImageIO.read(output.toFile());
  }

  private static Operation op(String name, Map<String, Object> params) {
    return new Operation(name, params);
  }

  private static void assertNear(BufferedImage image, int x, int y, Color expected) {
    Color actual = new Color(image.getRGB(x, y));
    int distance =
        Math.abs(actual.getRed() - expected.getRed())
            + Math.abs(actual.getGreen() - expected.getGreen())
            + Math.abs(actual.getBlue() - expected.getBlue());
    assertThat(distance)
        .as("colour at (%d,%d): %s, expected %s", x, y, actual, expected)
        .isLessThan(60);
  }
}
