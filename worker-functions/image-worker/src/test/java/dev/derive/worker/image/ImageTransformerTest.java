package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.encode;
import static dev.derive.worker.image.TestImages.resize;
import static dev.derive.worker.image.TestImages.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import javax.imageio.ImageIO;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageTransformerTest {
  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  @Test
  void probeResizesAndEncodesEveryOutputFormatAndCleansUp() throws IOException {
    transformer.probe(dir);

    assertThat(Files.list(dir)).as("the probe cleans up").isEmpty();
  }

  @Test
  void resizesALandscapeJpegIntoTheBoxKeepingTheAspectRatio() throws IOException {
    BufferedImage result =
        run(transformer, encode(TestImages.quadrants(1200, 800), "jpg"), step(resize(300, 300)));

    assertThat(result.getWidth()).isEqualTo(300);
    assertThat(result.getHeight()).isEqualTo(200);
  }

  @Test
  void resizesAPortraitIntoANonSquareBox() throws IOException {
    BufferedImage result =
        run(transformer, encode(TestImages.quadrants(600, 1800), "png"), step(resize(400, 300)));

    assertThat(result.getWidth()).isEqualTo(100);
    assertThat(result.getHeight()).isEqualTo(300);
  }

  @Test
  void neverEnlargesASmallImageByDefault() throws IOException {
    BufferedImage result =
        run(transformer, encode(TestImages.quadrants(120, 80), "png"), step(resize(1000, 1000)));

    assertThat(result.getWidth()).isEqualTo(120);
    assertThat(result.getHeight()).isEqualTo(80);
  }

  @Test
  void enlargesWhenWithoutEnlargementIsFalse() throws IOException {
    BufferedImage result =
        run(
            transformer,
            encode(TestImages.quadrants(120, 80), "png"),
            step(resize(240, 240, false)));

    assertThat(result.getWidth()).isEqualTo(240);
    assertThat(result.getHeight()).isEqualTo(160);
  }

  @Test
  void largeDownscaleKeepsTheColoursOfTheSource() throws IOException {
    BufferedImage result =
        run(transformer, encode(TestImages.quadrants(4000, 2000), "png"), step(resize(200, 200)));

    assertThat(result.getWidth()).isEqualTo(200);
    assertThat(result.getHeight()).isEqualTo(100);
    assertThat(distance(new Color(result.getRGB(10, 10)), TestImages.TOP_LEFT)).isLessThan(40);
    assertThat(distance(new Color(result.getRGB(190, 90)), TestImages.BOTTOM_RIGHT)).isLessThan(40);
  }

  @Test
  void encodesPngKeepingAlpha() throws IOException {
    BufferedImage translucent = new BufferedImage(40, 20, BufferedImage.TYPE_INT_ARGB);
    translucent.setRGB(0, 0, 0x00FF0000);
    Path output =
        transform(
            transformer,
            encode(translucent, "png"),
            step(TestImages.encode(MediaTypes.IMAGE_PNG, 85)));

    assertThat(Arrays.copyOf(Files.readAllBytes(output), 4)).containsExactly(0x89, 'P', 'N', 'G');
    BufferedImage result = ImageIO.read(output.toFile());
    assertThat(result.getColorModel().hasAlpha()).isTrue();
    assertThat(result.getRGB(5, 5) >>> 24).isZero();
  }

  @Test
  void flattensAlphaOntoWhiteForJpeg() throws IOException {
    BufferedImage transparent = new BufferedImage(40, 20, BufferedImage.TYPE_INT_ARGB);

    BufferedImage result =
        run(
            transformer,
            encode(transparent, "png"),
            step(TestImages.encode(MediaTypes.IMAGE_JPEG, 90)));

    assertThat(result.getColorModel().hasAlpha()).isFalse();
    assertThat(distance(new Color(result.getRGB(20, 10)), Color.WHITE)).isLessThan(10);
  }

  @Test
  void jpegQualityChangesTheEncodedSize() throws IOException {
    // noise makes quality matter
    BufferedImage noisy = TestImages.quadrants(300, 200);
    java.util.Random random = new java.util.Random(1);
    for (int i = 0; i < 20_000; i++) {
      noisy.setRGB(random.nextInt(300), random.nextInt(200), random.nextInt());
    }
    byte[] source = encode(noisy, "png");

    long low =
        Files.size(transform(transformer, source, step(TestImages.encode("image/jpeg", 10))));
    long high =
        Files.size(transform(transformer, source, step(TestImages.encode("image/jpeg", 95))));

    assertThat(high).isGreaterThan(low);
  }

  @Test
  void refusesAnImageOverThePixelLimitFromItsHeaderBeforeDecoding() {
    // 20000 x 20000 declared, no pixel data: decoding would fail as corrupt.
    byte[] bomb = TestImages.pngHeaderOnly(20_000, 20_000);

    assertPermanent(
        () -> transform(new ImageTransformer(100_000_000), bomb, step(resize(100, 100))),
        StepErrorTypes.INPUT_TOO_LARGE);
  }

  @Test
  void pixelLimitCountsWidthTimesHeight() {
    byte[] image;
    try {
      image = encode(TestImages.quadrants(200, 100), "png");
    } catch (IOException e) {
      throw new AssertionError(e);
    }

    assertPermanent(
        () -> transform(new ImageTransformer(19_999), image, step(resize(50, 50))),
        StepErrorTypes.INPUT_TOO_LARGE);
  }

  @Test
  void refusesAnOutputOverThePixelLimit() throws IOException {
    byte[] image = encode(TestImages.quadrants(100, 100), "png");

    assertPermanent(
        () -> transform(new ImageTransformer(20_000), image, step(resize(1000, 1000, false))),
        StepErrorTypes.OUTPUT_TOO_LARGE);
  }

  @Test
  void corruptJpegBytesAreCorruptInput() {
    assertPermanent(
        () -> transform(transformer, TestImages.corruptJpeg(), step(resize(100, 100))),
        StepErrorTypes.CORRUPT_INPUT);
  }

  @Test
  void truncatedPngIsCorruptInput() throws IOException {
    BufferedImage noisy = TestImages.quadrants(200, 200);
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 10_000; i++) {
      noisy.setRGB(random.nextInt(200), random.nextInt(200), random.nextInt());
    }
    byte[] png = encode(noisy, "png");
    byte[] truncated = Arrays.copyOf(png, png.length / 2);

    assertPermanent(
        () -> transform(transformer, truncated, step(resize(100, 100))),
        StepErrorTypes.CORRUPT_INPUT);
  }

  @Test
  void unknownFormatIsUnsupportedInput() {
    byte[] text = "just some text, not an image".getBytes(StandardCharsets.UTF_8);

    assertPermanent(
        () -> transform(transformer, text, step(resize(100, 100))),
        StepErrorTypes.UNSUPPORTED_INPUT);
  }

  @Test
  void unknownOperationIsAnInvalidStep() throws IOException {
    byte[] image = encode(TestImages.quadrants(10, 10), "png");

    assertPermanent(
        () -> transform(transformer, image, step(new Operation("blur", Map.of("sigma", 2)))),
        StepErrorTypes.INVALID_STEP);
  }

  @Test
  void unsupportedFitIsAnInvalidStep() throws IOException {
    byte[] image = encode(TestImages.quadrants(10, 10), "png");
    Operation scaleDown =
        new Operation("resize", Map.of("width", 5, "height", 5, "fit", "scale-down"));

    assertPermanent(
        () -> transform(transformer, image, step(scaleDown)), StepErrorTypes.INVALID_STEP);
  }

  /** Issue 30 item 5: a BigTIFF (64-bit offsets, version 43) was refused as unsupported-input. */
  @Test
  void aBigTiffIsReadLikeAnyTiffPagesIncluded() throws IOException {
    Path bigTiff = dir.resolve("pages.tif");
    Vips vips = Vips.shared();
    byte[] first = TestImages.encode(TestImages.quadrants(400, 300), "png");
    byte[] second = TestImages.encode(TestImages.bands(400, 300, Color.GREEN), "png");
    Path firstPng = Files.write(dir.resolve("first.png"), first);
    Path secondPng = Files.write(dir.resolve("second.png"), second);
    try (VipsImage a = vips.open(firstPng);
        VipsImage b = vips.open(secondPng);
        VipsImage pages =
            vips.operation("arrayjoin")
                .set("in", new VipsImage[] {a, b})
                .set("across", 1)
                .image()) {
      vips.operation("tiffsave")
          .set("in", pages)
          .set("filename", bigTiff.toString())
          .set("bigtiff", true)
          .set("page_height", 300)
          .run();
    }
    byte[] bytes = Files.readAllBytes(bigTiff);
    assertThat(new String(bytes, 0, 4, StandardCharsets.ISO_8859_1)).isIn("II+\0", "MM\0+");

    BufferedImage thumbnail = run(transformer, bytes, step(resize(200, 200)));
    BufferedImage page2 =
        run(
            transformer,
            bytes,
            step(new Operation(ImageRecipe.PAGE, Map.of("page", 2)), resize(200, 200)));

    assertThat(thumbnail.getWidth() + "x" + thumbnail.getHeight()).isEqualTo("200x150");
    assertThat(distance(new Color(thumbnail.getRGB(20, 20)), TestImages.TOP_LEFT)).isLessThan(30);
    assertThat(distance(new Color(thumbnail.getRGB(180, 130)), TestImages.BOTTOM_RIGHT))
        .isLessThan(30);
    assertThat(distance(new Color(page2.getRGB(100, 75)), Color.GREEN)).isLessThan(30);
  }

  /**
   * Issue 30 item 5: a BMP declaring 3,000,000 x 2,000,000 pixels was {@code corrupt-input} (the
   * JDK's reader fails on the header); it is a pixel bomb like any other.
   */
  @Test
  void aBmpDeclaringMorePixelsThanTheLimitIsInputTooLarge() {
    ByteBuffer bmp = ByteBuffer.allocate(14 + 40 + 64).order(ByteOrder.LITTLE_ENDIAN);
    bmp.put((byte) 'B').put((byte) 'M').putInt(bmp.capacity()).putInt(0).putInt(54);
    bmp.putInt(40).putInt(3_000_000).putInt(2_000_000).putShort((short) 1).putShort((short) 24);

    assertThatThrownBy(() -> transform(transformer, bmp.array(), step(resize(256, 256))))
        .isInstanceOf(PermanentStepFailure.class)
        .hasMessageContaining("image of 3000000x2000000 pixels is over the limit of 100000000")
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.INPUT_TOO_LARGE);
  }

  @Test
  void subsamplingKeepsThreeSourcePixelsPerTargetPixel() {
    assertThat(ImageSource.subsampling(6000, 4000, 256, 171)).isEqualTo(7);
    assertThat(ImageSource.subsampling(700, 500, 256, 183)).isEqualTo(1);
    assertThat(ImageSource.subsampling(100, 100, 400, 400)).isEqualTo(1);
  }

  private BufferedImage run(ImageTransformer transformer, byte[] input, StepMessage step)
      throws IOException {
    BufferedImage result = ImageIO.read(transform(transformer, input, step).toFile());
    assertThat(result).as("output decodes").isNotNull();
    return result;
  }

  private Path transform(ImageTransformer transformer, byte[] input, StepMessage step)
      throws IOException {
    Path in = Files.createTempFile(dir, "in", ".bin");
    Path out = Files.createTempFile(dir, "out", ".bin");
    Files.write(in, input);
    transformer.transform(step, in, out);
    return out;
  }

  private static void assertPermanent(ThrowingCallable call, String type) {
    assertThatThrownBy(call)
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(type);
  }

  private static int distance(Color a, Color b) {
    return Math.abs(a.getRed() - b.getRed())
        + Math.abs(a.getGreen() - b.getGreen())
        + Math.abs(a.getBlue() - b.getBlue());
  }
}
