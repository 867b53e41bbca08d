package dev.derive.worker.image;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every HEIC of the corpus's {@code heic/} folder (and {@code modern-images/example.heic}), decoded
 * by FFmpeg and checked against libheif's own decode ({@code heif-convert} of Debian's {@code
 * libheif-examples}, libheif 1.15 with libde265): the whole picture, pixel for pixel within
 * rounding, upright, its alpha kept; and through the image step like any JPEG.
 */
class HeicCorpusTest {
  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  /**
   * The decode at full size against libheif's: the grid assembled whole (a missing, misplaced or
   * misordered 512x512 tile differs by tens), {@code irot} applied once, the primary image of a
   * multi-image file, the still of a motion photo; mean difference per channel under 1.5 (the two
   * convert YUV to RGB with slightly different rounding and chroma filters).
   */
  @ParameterizedTest
  @CsvSource({
    "heic/arrow.heic, 3024x4032, ",
    "heic/xiaomi.heic, 2592x1944, ",
    "heic/spatial_photo.heic, 2560x2560, -1",
    "heic/sample_MP.heic, 1080x1920, ",
    "heic/with-alpha-512x512.heic, 512x512, ",
    "modern-images/example.heic, 1280x854, -1"
  })
  void decodesTheWholePrimaryImageAsLibheifDoes(String sample, String size, String suffix)
      throws IOException {
    Path file = samples().resolve(sample);
    BufferedImage reference = libheif(file, suffix == null ? "" : suffix);
    BufferedImage decoded;
    try (HeicSource source = heic(file)) {
      assertThat(source.width() + "x" + source.height()).isEqualTo(size);
      decoded = source.decodeAsCoded(1);
    }

    assertThat(decoded.getWidth() + "x" + decoded.getHeight()).isEqualTo(size);
    assertThat(meanDifference(decoded, reference)).as("%s against libheif", sample).isLessThan(1.5);
    assertThat(maxTileDifference(decoded, reference))
        .as("the worst 64x64 block of %s", sample)
        .isLessThan(6);
  }

  /**
   * iPhone 8 Plus: 48 tiles, {@code irot} 270° with EXIF orientation 6 saying the same: portrait.
   */
  @Test
  void iphoneGridPhotoThumbnailIsPortraitAndWhole() throws IOException {
    BufferedImage thumbnail =
        thumbnail(samples().resolve("heic/arrow.heic"), MediaTypes.IMAGE_JPEG);
    assertThat(thumbnail.getWidth() + "x" + thumbnail.getHeight()).isEqualTo("192x256");
    BufferedImage reference = scaled(libheif(samples().resolve("heic/arrow.heic"), ""), 192, 256);
    assertThat(meanDifference(thumbnail, reference)).isLessThan(6);
  }

  /**
   * The iPhone photo's 240x320 thumbnail item serves boxes it covers, as libvips' thumbnail does (1
   * small picture instead of 48 tiles), and never a bigger box.
   */
  @Test
  void theEmbeddedThumbnailServesTheBoxesItCoversOnly() throws IOException {
    try (HeicSource source = heic(samples().resolve("heic/arrow.heic"))) {
      assertThat(source.decodedSize(192, 256)).isEqualTo(new java.awt.Dimension(240, 320));
      assertThat(source.decodedSize(240, 320)).isEqualTo(new java.awt.Dimension(240, 320));
      assertThat(source.decodedSize(384, 512).width).isGreaterThan(240);
      BufferedImage thumbnail = source.decodeScaled(192, 256);
      assertThat(thumbnail.getWidth() + "x" + thumbnail.getHeight()).isEqualTo("240x320");
      BufferedImage whole = scaled(source.decode(4), 240, 320);
      assertThat(meanDifference(thumbnail, whole)).isLessThan(6);
    }
  }

  @Test
  void alphaIsKeptInPngWebpAndAvif() throws IOException {
    Path file = samples().resolve("heic/with-alpha-512x512.heic");
    BufferedImage reference = libheif(file, "");
    assertThat(reference.getColorModel().hasAlpha()).isTrue();
    for (String type : List.of(MediaTypes.IMAGE_PNG, "image/webp", "image/avif")) {
      BufferedImage out =
          type.equals(MediaTypes.IMAGE_PNG) ? thumbnail(file, type) : viaLibvips(file, type);
      assertThat(out.getColorModel().hasAlpha()).as(type).isTrue();
      int transparent = 0;
      int referenceTransparent = 0;
      for (int y = 0; y < 256; y += 4) {
        for (int x = 0; x < 256; x += 4) {
          transparent += (out.getRGB(x, y) >>> 24) < 128 ? 1 : 0;
          referenceTransparent += (reference.getRGB(x * 2, y * 2) >>> 24) < 128 ? 1 : 0;
        }
      }
      assertThat(referenceTransparent).isPositive();
      assertThat(Math.abs(transparent - referenceTransparent))
          .as(type)
          .isLessThan(referenceTransparent / 20 + 5);
    }
  }

  /** Canon EOS R8, 10-bit PQ (HDR10) in BT.2020: tone-mapped, not the dim, flat PQ code values. */
  @Test
  void tenBitPqHeicIsToneMapped() throws IOException {
    Path file = samples().resolve("heic/TestHDR.heic");
    BufferedImage thumbnail = thumbnail(file, MediaTypes.IMAGE_PNG);
    assertThat(thumbnail.getWidth() + "x" + thumbnail.getHeight()).isEqualTo("256x171");
    BufferedImage naive = scaled(libheif(file, ""), 256, 171); // PQ code values shown as sRGB
    double[] toned = luma(thumbnail);
    double[] flat = luma(naive);
    assertThat(toned[1]).as("contrast").isGreaterThan(1.2 * flat[1]);
    assertThat(toned[2]).as("colourfulness").isGreaterThan(1.5 * flat[2]);
  }

  @Test
  void truncatedHeicIsCorruptInputWithASentence() {
    assertThatThrownBy(
            () -> thumbnail(samples().resolve("heic/truncated.heic"), MediaTypes.IMAGE_JPEG))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> {
              assertThat(e.type()).isEqualTo(StepErrorTypes.CORRUPT_INPUT);
              assertThat(e.detail())
                  .startsWith("the HEIC file cannot be read: it is damaged or cut short")
                  .doesNotContain("Exception", "/tmp", "\n");
            });
  }

  @Test
  void thePixelLimitIsCheckedFromTheHeaderBeforeDecoding() throws IOException {
    // the photo with every byte of its coded image (the mdat payload) zeroed: a decode would fail
    // as corrupt, so only a refusal read from the header can name the size
    byte[] bytes = Files.readAllBytes(samples().resolve("heic/arrow.heic"));
    int mdat = indexOf(bytes, "mdat".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    assertThat(mdat).as("arrow.heic has an mdat box").isPositive();
    java.util.Arrays.fill(bytes, mdat + 12, bytes.length, (byte) 0);
    Path headerOnly = Files.write(dir.resolve("header-only.heic"), bytes);
    assertThatThrownBy(
            () -> thumbnail(new ImageTransformer(10_000_000), headerOnly, MediaTypes.IMAGE_JPEG))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> {
              assertThat(e.type()).isEqualTo(StepErrorTypes.INPUT_TOO_LARGE);
              assertThat(e.detail()).contains("4032x3024");
            });
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void theSecondImageOfAStereoPairIsPageTwo() throws IOException {
    Path file = samples().resolve("heic/spatial_photo.heic");
    BufferedImage right;
    try (HeicSource source = HeicSource.open(file, Sniffer.heif(file), 100_000_000, 2)) {
      right = source.decodeAsCoded(1);
    }
    assertThat(meanDifference(right, libheif(file, "-2"))).isLessThan(1.5);
    assertThat(meanDifference(right, libheif(file, "-1"))).isGreaterThan(2);
  }

  @Test
  void heicTurnedOffIsRefusedAsUnsupportedWithASentence() {
    System.setProperty(ImageSources.HEIC_PROPERTY, "off");
    try {
      assertThatThrownBy(
              () -> thumbnail(samples().resolve("heic/xiaomi.heic"), MediaTypes.IMAGE_JPEG))
          .isInstanceOfSatisfying(
              PermanentStepFailure.class,
              e -> {
                assertThat(e.type()).isEqualTo(StepErrorTypes.UNSUPPORTED_INPUT);
                assertThat(e.detail()).startsWith("HEIC images").contains("turned off");
              });
    } finally {
      System.clearProperty(ImageSources.HEIC_PROPERTY);
    }
  }

  private static HeicSource heic(Path file) throws IOException {
    return HeicSource.open(file, Sniffer.heif(file), 100_000_000, 1);
  }

  private BufferedImage thumbnail(Path source, String mediaType) throws IOException {
    return thumbnail(transformer, source, mediaType);
  }

  private BufferedImage thumbnail(ImageTransformer transformer, Path source, String mediaType)
      throws IOException {
    Path output = Files.createTempFile(dir, "thumb", ".out");
    StepMessage step =
        TestImages.step(TestImages.resize(256, 256), TestImages.encode(mediaType, 90));
    transformer.transform(step, source, output);
    BufferedImage image = ImageIO.read(output.toFile());
    assertThat(image).as("thumbnail of %s decodes", source).isNotNull();
    return image;
  }

  /** A WebP or AVIF thumbnail, read back through libvips (ImageIO has no AVIF reader). */
  private BufferedImage viaLibvips(Path source, String mediaType) throws IOException {
    Path output =
        Files.createTempFile(dir, "thumb", mediaType.equals("image/webp") ? ".webp" : ".avif");
    StepMessage step =
        TestImages.step(TestImages.resize(256, 256), TestImages.encode(mediaType, 90));
    transformer.transform(step, source, output);
    try (var image = dev.derive.worker.libvips.Vips.shared().open(output)) {
      return VipsTestImages.toBufferedImage(image);
    }
  }

  /**
   * libheif's decode of {@code file} ({@code heif-convert}; {@code suffix} picks an image of
   * several).
   */
  private BufferedImage libheif(Path file, String suffix) throws IOException {
    Path png = dir.resolve(file.getFileName() + ".png");
    Path written = dir.resolve(file.getFileName() + suffix + ".png");
    if (!Files.exists(written)) {
      Process process;
      try {
        process =
            new ProcessBuilder("heif-convert", file.toString(), png.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("heif-convert.log").toFile())
                .start();
      } catch (IOException e) {
        throw new AssertionError(
            "heif-convert is needed as the reference decoder: apt-get install libheif-examples", e);
      }
      try {
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
      assertThat(written).as(Files.readString(dir.resolve("heif-convert.log"))).exists();
    }
    BufferedImage image = ImageIO.read(written.toFile());
    if (image.getColorModel().getComponentSize(0) > 8) {
      BufferedImage eight =
          new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_RGB);
      eight.getGraphics().drawImage(image, 0, 0, null);
      return eight;
    }
    return image;
  }

  private static BufferedImage scaled(BufferedImage image, int width, int height) {
    BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
    out.getGraphics()
        .drawImage(
            image.getScaledInstance(width, height, java.awt.Image.SCALE_AREA_AVERAGING),
            0,
            0,
            null);
    return out;
  }

  /** Mean luma, its standard deviation and the mean chroma (|r - g| + |g - b|). */
  private static double[] luma(BufferedImage image) {
    double sum = 0;
    double sum2 = 0;
    double chroma = 0;
    int n = image.getWidth() * image.getHeight();
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int p = image.getRGB(x, y);
        double l = 0.2126 * ((p >> 16) & 0xFF) + 0.7152 * ((p >> 8) & 0xFF) + 0.0722 * (p & 0xFF);
        sum += l;
        sum2 += l * l;
        chroma +=
            Math.abs(((p >> 16) & 0xFF) - ((p >> 8) & 0xFF))
                + Math.abs(((p >> 8) & 0xFF) - (p & 0xFF));
      }
    }
    double mean = sum / n;
    return new double[] {mean, Math.sqrt(Math.max(0, sum2 / n - mean * mean)), chroma / n};
  }

  private static double meanDifference(BufferedImage a, BufferedImage b) {
    assertThat(b.getWidth() + "x" + b.getHeight()).isEqualTo(a.getWidth() + "x" + a.getHeight());
    return blockDifference(a, b, 0, 0, a.getWidth(), a.getHeight());
  }

  /** The largest mean difference of any 64x64 block: a seam or a wrong tile shows here. */
  private static double maxTileDifference(BufferedImage a, BufferedImage b) {
    double worst = 0;
    for (int y = 0; y < a.getHeight(); y += 64) {
      for (int x = 0; x < a.getWidth(); x += 64) {
        worst =
            Math.max(
                worst,
                blockDifference(
                    a, b, x, y, Math.min(64, a.getWidth() - x), Math.min(64, a.getHeight() - y)));
      }
    }
    return worst;
  }

  private static double blockDifference(
      BufferedImage a, BufferedImage b, int x0, int y0, int w, int h) {
    int[] pa = a.getRGB(x0, y0, w, h, null, 0, w);
    int[] pb = b.getRGB(x0, y0, w, h, null, 0, w);
    long sum = 0;
    for (int i = 0; i < pa.length; i++) {
      for (int shift = 0; shift <= 24; shift += 8) {
        if (shift == 24 && !(a.getColorModel().hasAlpha() && b.getColorModel().hasAlpha())) {
          continue;
        }
        sum += Math.abs(((pa[i] >>> shift) & 0xFF) - ((pb[i] >>> shift) & 0xFF));
      }
    }
    return (double) sum / (3.0 * pa.length);
  }
}
