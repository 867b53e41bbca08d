package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.resize;
import static dev.derive.worker.image.TestImages.step;
import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * WebP and AVIF output through libvips' savers, decoded back to prove it: WebP with ImageIO
 * (TwelveMonkeys), AVIF with libvips' heifload. Prints each encode's time.
 */
class WebpAvifOutputTest {
  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  @Test
  void jpegToWebpIsARealWebpOfTheBoxWithTheColoursInPlace() throws IOException {
    Path out = run(jpeg(1200, 800), encode(MediaTypes.IMAGE_WEBP, 85, null, null), "webp");

    assertThat(new String(Files.readAllBytes(out), 8, 4, StandardCharsets.US_ASCII))
        .isEqualTo("WEBP");
    BufferedImage image = ImageIO.read(out.toFile());
    assertThat(image).as("TwelveMonkeys reads it").isNotNull();
    assertThat(image.getWidth()).isEqualTo(300);
    assertThat(image.getHeight()).isEqualTo(200);
    // Colours through libvips' webpload: TwelveMonkeys 3.x decodes this lossy (VP8) file's red
    // corner as 0x790000 where libwebp gives 0xdd1514 (a reader bug, not the file's)
    try (VipsImage decoded = Vips.shared().open(out)) {
      assertThat(decoded.string("vips-loader")).hasValue("webpload");
      assertThat(decoded.bands()).isEqualTo(3);
      byte[] pixels = decoded.bytes();
      assertClose(rgb(pixels, 300, 3, 40, 40), TestImages.TOP_LEFT);
      assertClose(rgb(pixels, 300, 3, 260, 160), TestImages.BOTTOM_RIGHT);
      assertClose(mean(pixels, 3), new Color(123, 118, 70), 12);
    }
  }

  @Test
  void jpegToAvifIsAnAv1HeifOfTheBoxWithTheColoursInPlace() throws IOException {
    Path out = run(jpeg(1200, 800), encode(MediaTypes.IMAGE_AVIF, 60, null, null), "avif");

    assertThat(new String(Files.readAllBytes(out), 4, 8, StandardCharsets.US_ASCII))
        .isEqualTo("ftypavif");
    try (VipsImage image = Vips.shared().openHeif(out, -1)) {
      assertThat(image.string("heif-compression")).hasValue("av1");
      assertThat(image.width()).isEqualTo(300);
      assertThat(image.height()).isEqualTo(200);
      assertThat(image.bands()).isEqualTo(3);
      byte[] pixels = image.bytes();
      assertClose(rgb(pixels, 300, 3, 40, 40), TestImages.TOP_LEFT);
      assertClose(rgb(pixels, 300, 3, 260, 160), TestImages.BOTTOM_RIGHT);
      assertClose(mean(pixels, 3), new Color(123, 118, 70), 12);
    }
  }

  @Test
  void transparencyIsKeptInWebpAndAvifAsInPng() throws IOException {
    BufferedImage half = new BufferedImage(80, 40, BufferedImage.TYPE_INT_ARGB);
    for (int y = 0; y < 40; y++) {
      for (int x = 0; x < 80; x++) {
        half.setRGB(x, y, x < 40 ? 0x00000000 : 0xFF2040E0);
      }
    }
    byte[] png = TestImages.encode(half, "png");

    BufferedImage webp =
        ImageIO.read(
            run(png, encode(MediaTypes.IMAGE_WEBP, 90, null, null), "alpha-webp").toFile());
    assertThat(webp.getColorModel().hasAlpha()).isTrue();
    assertThat(webp.getRGB(10, 20) >>> 24).isLessThan(8);
    assertThat(webp.getRGB(70, 20) >>> 24).isGreaterThan(247);
    assertClose(webp.getRGB(70, 20), new Color(0x20, 0x40, 0xE0));

    Path avif = run(png, encode(MediaTypes.IMAGE_AVIF, 90, null, null), "alpha-avif");
    try (VipsImage image = Vips.shared().openHeif(avif, -1)) {
      assertThat(image.bands()).isEqualTo(4);
      byte[] pixels = image.bytes();
      assertThat(pixels[(20 * 80 + 10) * 4 + 3] & 0xFF).isLessThan(8);
      assertThat(pixels[(20 * 80 + 70) * 4 + 3] & 0xFF).isGreaterThan(247);
      assertClose(rgb(pixels, 80, 4, 70, 20), new Color(0x20, 0x40, 0xE0));
    }
  }

  @Test
  void losslessWebpKeepsEveryPixel() throws IOException {
    BufferedImage noise = new BufferedImage(97, 61, BufferedImage.TYPE_INT_RGB);
    java.util.Random random = new java.util.Random(10);
    for (int y = 0; y < 61; y++) {
      for (int x = 0; x < 97; x++) {
        noise.setRGB(x, y, random.nextInt() & 0xFFFFFF);
      }
    }
    Path in = dir.resolve("noise.png");
    Files.write(in, TestImages.encode(noise, "png"));
    Path out = dir.resolve("noise.webp");

    transformer.transform(step(encode(MediaTypes.IMAGE_WEBP, 10, true, null)), in, out);

    BufferedImage decoded = ImageIO.read(out.toFile());
    for (int y = 0; y < 61; y++) {
      for (int x = 0; x < 97; x++) {
        assertThat(decoded.getRGB(x, y) & 0xFFFFFF).isEqualTo(noise.getRGB(x, y) & 0xFFFFFF);
      }
    }
  }

  @Test
  void qualityAndEffortChangeTheSize() throws IOException {
    byte[] photo = Files.readAllBytes(samples().resolve("exif/Landscape_1.jpg"));
    long webpLow = Files.size(run(photo, encode(MediaTypes.IMAGE_WEBP, 20, null, null), "wl"));
    long webpHigh = Files.size(run(photo, encode(MediaTypes.IMAGE_WEBP, 95, null, null), "wh"));
    long avifLow = Files.size(run(photo, encode(MediaTypes.IMAGE_AVIF, 20, null, null), "al"));
    long avifHigh = Files.size(run(photo, encode(MediaTypes.IMAGE_AVIF, 95, null, null), "ah"));
    long avifFast = Files.size(run(photo, encode(MediaTypes.IMAGE_AVIF, 60, null, 0), "af"));
    long avifSlow = Files.size(run(photo, encode(MediaTypes.IMAGE_AVIF, 60, null, 6), "as"));

    System.out.printf(
        "sizes: webp q20 %d q95 %d, avif q20 %d q95 %d, avif q60 effort 0 %d effort 6 %d%n",
        webpLow, webpHigh, avifLow, avifHigh, avifFast, avifSlow);
    assertThat(webpLow).isLessThan(webpHigh);
    assertThat(avifLow).isLessThan(avifHigh);
    assertThat(avifFast).isNotEqualTo(avifSlow);
  }

  @Test
  void metadataIsNotCarriedOver() throws IOException {
    byte[] photo = Files.readAllBytes(samples().resolve("exif/Landscape_1.jpg"));
    assertThat(new String(photo, StandardCharsets.ISO_8859_1)).contains("Exif");

    for (String mediaType : new String[] {MediaTypes.IMAGE_WEBP, MediaTypes.IMAGE_AVIF}) {
      String written =
          new String(
              Files.readAllBytes(run(photo, encode(mediaType, 80, null, null), "meta")),
              StandardCharsets.ISO_8859_1);
      assertThat(written).as(mediaType).doesNotContain("Exif").doesNotContain("EXIF");
      assertThat(written).as(mediaType).doesNotContain("ICCP").doesNotContain("colrprof");
      assertThat(written).as(mediaType).doesNotContain("XMP");
    }
  }

  @Test
  void effortOutsideZeroToNineIsAnInvalidStep() {
    assertThatThrownBy(
            () ->
                ImageRecipe.of(
                    TestImages.declared(step(encode(MediaTypes.IMAGE_AVIF, 50, null, 10)))))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> assertThat(e.type()).isEqualTo(StepErrorTypes.INVALID_STEP));
  }

  @Test
  void withoutAnEffortEachFormatTakesItsDefaultAndAvifThumbnailsAreMadeFaster() {
    int none = ImageRecipe.FORMAT_EFFORT;
    assertThat(
            ImageRecipe.of(TestImages.declared(step(encode(MediaTypes.IMAGE_AVIF, 50, null, null))))
                .effort())
        .isEqualTo(none);

    assertThat(ImageEncoder.effort(MediaTypes.IMAGE_AVIF, none, 256 * 192)).isEqualTo(3);
    assertThat(ImageEncoder.effort(MediaTypes.IMAGE_AVIF, none, 256 * 256)).isEqualTo(3);
    assertThat(ImageEncoder.effort(MediaTypes.IMAGE_AVIF, none, 256 * 257)).isEqualTo(4);
    assertThat(ImageEncoder.effort(MediaTypes.IMAGE_AVIF, 9, 64)).isEqualTo(9);
    assertThat(ImageEncoder.effort(MediaTypes.IMAGE_WEBP, none, 64)).isEqualTo(4);
    assertThat(ImageEncoder.effort(MediaTypes.IMAGE_WEBP, 9, 64)).isEqualTo(Vips.WEBP_MAX_EFFORT);
    assertThat(ImageEncoder.effort(MediaTypes.IMAGE_GIF, none, 64)).isEqualTo(7);
    assertThat(ImageEncoder.effort(MediaTypes.IMAGE_GIF, 0, 64)).isEqualTo(Vips.GIF_MIN_EFFORT);
    assertThat(ImageEncoder.effort(MediaTypes.IMAGE_GIF, 9, 64)).isEqualTo(Vips.GIF_MAX_EFFORT);
  }

  @Test
  void anAvifThumbnailWithoutAnEffortIsEncodedAtEffortThree() throws IOException {
    byte[] input = jpeg(1200, 800);
    byte[] unset =
        Files.readAllBytes(run(input, encode(MediaTypes.IMAGE_AVIF, 60, null, null), "unset"));
    byte[] three =
        Files.readAllBytes(run(input, encode(MediaTypes.IMAGE_AVIF, 60, null, 3), "three"));
    byte[] four =
        Files.readAllBytes(run(input, encode(MediaTypes.IMAGE_AVIF, 60, null, 4), "four"));

    // 300 x 200 is a thumbnail: the encoder (deterministic for the same input) ran at effort 3
    assertThat(unset).isEqualTo(three).isNotEqualTo(four);
  }

  /** Lossy WebP input is decoded by libwebp: ImageIO's reader read this red as 0x790000. */
  @Test
  void aLossyWebpSourceKeepsItsColoursInAPngThumbnail() throws IOException {
    Path lossy = run(jpeg(1200, 800), encode(MediaTypes.IMAGE_WEBP, 85, null, null), "lossy");
    byte[] webp = Files.readAllBytes(lossy);

    Path png = run(webp, encode(MediaTypes.IMAGE_PNG, 85, null, null), "webp-to-png");

    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(300);
    assertClose(image.getRGB(40, 40) & 0xFFFFFF, TestImages.TOP_LEFT);
    assertClose(image.getRGB(260, 40) & 0xFFFFFF, TestImages.TOP_RIGHT);
    assertClose(image.getRGB(40, 160) & 0xFFFFFF, TestImages.BOTTOM_LEFT);
    assertClose(image.getRGB(260, 160) & 0xFFFFFF, TestImages.BOTTOM_RIGHT);
  }

  private Path run(byte[] input, Operation encode, String name) throws IOException {
    Path in = dir.resolve(name + ".in");
    Path out = dir.resolve(name + ".out");
    Files.write(in, input);
    transformer.transform(step(resize(300, 300), encode), in, out); // warm
    long start = System.nanoTime();
    transformer.transform(step(resize(300, 300), encode), in, out);
    System.out.printf(
        "%s %s: %.1f ms, %d bytes%n",
        name, encode.params(), (System.nanoTime() - start) / 1e6, Files.size(out));
    return out;
  }

  private static byte[] jpeg(int width, int height) throws IOException {
    return TestImages.encode(TestImages.quadrants(width, height), "jpg");
  }

  private static Operation encode(String mediaType, int quality, Boolean lossless, Integer effort) {
    Map<String, Object> params = new HashMap<>();
    params.put("mediaType", mediaType);
    params.put("quality", quality);
    if (lossless != null) {
      params.put("lossless", lossless);
    }
    if (effort != null) {
      params.put("effort", effort);
    }
    return new Operation(ImageRecipe.ENCODE, params);
  }

  private static int rgb(byte[] pixels, int width, int bands, int x, int y) {
    int i = (y * width + x) * bands;
    return (pixels[i] & 0xFF) << 16 | (pixels[i + 1] & 0xFF) << 8 | (pixels[i + 2] & 0xFF);
  }

  private static Color mean(byte[] pixels, int bands) {
    long[] sum = new long[3];
    for (int i = 0; i < pixels.length; i += bands) {
      for (int b = 0; b < 3; b++) {
        sum[b] += pixels[i + b] & 0xFF;
      }
    }
    long n = pixels.length / bands;
    return new Color((int) (sum[0] / n), (int) (sum[1] / n), (int) (sum[2] / n));
  }

  private static void assertClose(int rgb, Color expected) {
    assertClose(new Color(rgb), expected, 24);
  }

  private static void assertClose(Color actual, Color expected, int tolerance) {
    assertThat(actual.getRed())
        .as("red of " + actual)
        .isCloseTo(expected.getRed(), within(tolerance));
    assertThat(actual.getGreen())
        .as("green of " + actual)
        .isCloseTo(expected.getGreen(), within(tolerance));
    assertThat(actual.getBlue())
        .as("blue of " + actual)
        .isCloseTo(expected.getBlue(), within(tolerance));
  }

  private static org.assertj.core.data.Offset<Integer> within(int tolerance) {
    return org.assertj.core.data.Offset.offset(tolerance);
  }
}
