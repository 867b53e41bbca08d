package dev.derive.worker.image.vips;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every libvips binding, called with real images: a wrong signature on a variadic downcall would
 * crash the JVM here rather than in production. libvips comes from the build's {@code
 * target/libvips} ({@code -Dderive.libvips.path}, set by the module's surefire configuration).
 */
class VipsTest {
  @TempDir Path dir;

  private final Vips vips = loaded();

  /** Fails, never skips, when the build did not unpack libvips. */
  static Vips loaded() {
    try {
      return Vips.shared();
    } catch (VipsUnavailableException e) {
      throw new AssertionError(
          "libvips is missing: run the image worker's build (./mvnw -pl"
              + " worker-functions/image-worker -am install -DskipTests), which fetches"
              + " @img/sharp-libvips from the npm registry into target/libvips; "
              + e.getMessage(),
          e);
    }
  }

  @Test
  void loadsLibvips8187FromTheConfiguredFolderWithItsPlatformName() {
    assertThat(vips.version()).isEqualTo("8.18.7");
    assertThat(vips.library().toString()).endsWith(Vips.platform() + "/lib/" + Vips.LIBRARY_FILE);
    assertThat(Vips.shared()).isSameAs(vips);
  }

  @Test
  void openReadsTheHeaderOfAPng() throws IOException {
    Path png = write(picture(64, 48, true), "png");

    try (VipsImage image = vips.open(png)) {
      assertThat(image.width()).isEqualTo(64);
      assertThat(image.height()).isEqualTo(48);
      assertThat(image.bands()).isEqualTo(4);
      assertThat(image.hasAlpha()).isTrue();
      assertThat(image.format()).isEqualTo(Vips.FORMAT_UCHAR);
      assertThat(image.interpretation()).isEqualTo(Vips.INTERPRETATION_SRGB);
      assertThat(image.pages()).isEqualTo(1);
      assertThat(image.string("vips-loader")).hasValue("pngload");
      assertThat(image.string("no-such-field")).isEmpty();
    }
  }

  @Test
  void bytesAreTheDecodedPixelsBandInterleaved() throws IOException {
    Path png = write(picture(64, 48, false), "png");

    try (VipsImage image = vips.open(png)) {
      byte[] pixels = image.bytes();
      assertThat(pixels).hasSize(64 * 48 * 3);
      // picture(): red left half, blue right half
      assertThat(rgb(pixels, 0)).containsExactly(255, 0, 0);
      assertThat(rgb(pixels, (47 * 64 + 63) * 3)).containsExactly(0, 0, 255);
    }
  }

  @Test
  void thumbnailShrinksAJpegIntoTheBoxAndNeverEnlarges() throws IOException {
    Path jpeg = write(picture(400, 200, false), "jpeg");

    try (VipsImage small = vips.thumbnail(jpeg, 100, 100, "");
        VipsImage same = vips.thumbnail(jpeg, 1000, 1000, "")) {
      assertThat(small.width()).isEqualTo(100);
      assertThat(small.height()).isEqualTo(50);
      assertThat(small.interpretation()).isEqualTo(Vips.INTERPRETATION_SRGB);
      assertThat(same.width()).isEqualTo(400);
      assertThat(same.height()).isEqualTo(200);
    }
  }

  @Test
  void thumbnailPassesLoadOptionsSuchAsThePage() {
    Path tiff = samples().resolve("other-images/multipage.tiff");

    try (VipsImage first = vips.thumbnail(tiff, 64, 64, "");
        VipsImage second = vips.thumbnail(tiff, 64, 64, "page=1")) {
      assertThat(first.width()).isPositive();
      assertThat(second.width()).isPositive();
      assertThat(second.bytes()).isNotEqualTo(first.bytes());
    }
    assertThatThrownBy(() -> vips.thumbnail(tiff, 64, 64, "page=99").close())
        .isInstanceOf(VipsException.class);
  }

  @Test
  void thumbnailOfAnOpenImageAndResizeKeepingSixteenBits() throws IOException {
    BufferedImage grey = new BufferedImage(80, 40, BufferedImage.TYPE_USHORT_GRAY);
    short[] data = ((java.awt.image.DataBufferUShort) grey.getRaster().getDataBuffer()).getData();
    java.util.Arrays.fill(data, (short) 0xC000);
    Path png = write(grey, "png");

    try (VipsImage image = vips.open(png);
        VipsImage thumbnail = vips.thumbnail(image, 40, 40);
        VipsImage half = vips.resize(image, 0.5)) {
      assertThat(image.format()).isEqualTo(Vips.FORMAT_USHORT);
      assertThat(thumbnail.width()).isEqualTo(40);
      assertThat(thumbnail.height()).isEqualTo(20);
      assertThat(half.width()).isEqualTo(40);
      assertThat(half.format()).isEqualTo(Vips.FORMAT_USHORT);
      short[] samples = half.shorts();
      assertThat(samples).hasSize(40 * 20);
      assertThat(samples[0] & 0xFFFF).isEqualTo(0xC000);
    }
  }

  @Test
  void colourspaceAndCastMakeEightBitSrgb() throws IOException {
    BufferedImage grey = new BufferedImage(8, 8, BufferedImage.TYPE_USHORT_GRAY);
    Path png = write(grey, "png");

    try (VipsImage image = vips.open(png);
        VipsImage srgb = vips.colourspace(image, Vips.INTERPRETATION_SRGB);
        VipsImage wide = vips.cast(srgb, Vips.FORMAT_USHORT);
        VipsImage narrow = vips.cast(wide, Vips.FORMAT_UCHAR)) {
      assertThat(srgb.bands()).isEqualTo(3);
      assertThat(srgb.format()).isEqualTo(Vips.FORMAT_UCHAR);
      assertThat(wide.format()).isEqualTo(Vips.FORMAT_USHORT);
      assertThat(narrow.format()).isEqualTo(Vips.FORMAT_UCHAR);
      assertThat(narrow.bytes()).hasSize(8 * 8 * 3);
      assertThatThrownBy(narrow::shorts).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void openHeifReadsAnAvifAndItsPages() {
    Path avif = samples().resolve("modern-images/kodim03_yuv420_8bpc.avif");

    try (VipsImage primary = vips.openHeif(avif, -1);
        VipsImage first = vips.openHeif(avif, 0)) {
      assertThat(primary.width()).isEqualTo(768);
      assertThat(primary.height()).isEqualTo(512);
      assertThat(primary.string("heif-compression")).hasValue("av1");
      assertThat(primary.pages()).isEqualTo(1);
      assertThat(first.width()).isEqualTo(768);
    }
    assertThatThrownBy(() -> vips.openHeif(avif, 5).close())
        .isInstanceOf(VipsException.class)
        .hasMessageContaining("heifload");
  }

  @Test
  void failuresCarryLibvipsOwnMessage() throws IOException {
    Path text = dir.resolve("not-an-image.txt");
    Files.writeString(text, "hello");

    assertThatThrownBy(() -> vips.open(text))
        .isInstanceOf(VipsException.class)
        .hasMessageContaining("not a known file format");
    assertThatThrownBy(() -> vips.openHeif(text, -1)).isInstanceOf(VipsException.class);
    assertThatThrownBy(() -> vips.thumbnail(text, 10, 10, ""))
        .isInstanceOf(VipsException.class)
        .hasMessageContaining("not a known file format");
  }

  @Test
  void aClosedImageRefusesUseAndClosesOnce() throws IOException {
    VipsImage image = vips.open(write(picture(4, 4, false), "png"));
    image.close();
    image.close();

    assertThatThrownBy(image::width).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void fromPixelsMakesAnSrgbImageOfTheSamples() {
    byte[] samples = {(byte) 255, 0, 0, 0, 0, (byte) 255, 0, (byte) 255, 0, 1, 2, 3};

    try (VipsImage image = vips.fromPixels(samples, 2, 2, 3)) {
      assertThat(image.width()).isEqualTo(2);
      assertThat(image.height()).isEqualTo(2);
      assertThat(image.bands()).isEqualTo(3);
      assertThat(image.format()).isEqualTo(Vips.FORMAT_UCHAR);
      assertThat(image.interpretation()).isEqualTo(Vips.INTERPRETATION_SRGB);
      assertThat(image.bytes()).containsExactly(samples);
    }
    assertThatThrownBy(() -> vips.fromPixels(samples, 2, 2, 4))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void saveWebpWritesLosslessExactlyAndLossySmallerAtLowerQuality() throws IOException {
    BufferedImage gradient = picture(64, 48, true);
    for (int y = 0; y < 48; y++) {
      for (int x = 0; x < 32; x++) {
        gradient.setRGB(x, y, (128 + y) << 24 | (x * 8) << 16 | (y * 5) << 8 | ((x * y) & 0xFF));
      }
    }
    byte[] samples = rgba(gradient);
    Path lossless = dir.resolve("lossless.webp");
    Path low = dir.resolve("low.webp");
    Path high = dir.resolve("high.webp");

    try (VipsImage image = vips.fromPixels(samples, 64, 48, 4)) {
      vips.saveWebp(image, lossless, 80, true, 4);
      vips.saveWebp(image, low, 10, false, 0);
      vips.saveWebp(image, high, 95, false, 0);
    }

    assertThat(Files.readAllBytes(lossless)).startsWith("RIFF".getBytes());
    try (VipsImage decoded = vips.open(lossless)) {
      assertThat(decoded.string("vips-loader")).hasValue("webpload");
      assertThat(decoded.hasAlpha()).isTrue();
      assertThat(decoded.bytes()).containsExactly(samples);
    }
    try (VipsImage decoded = vips.open(high)) {
      assertThat(decoded.width()).isEqualTo(64);
      assertThat(decoded.bands()).isEqualTo(4);
    }
    assertThat(Files.size(low)).isLessThan(Files.size(high));
  }

  @Test
  void saveAvifWritesAnAv1HeifWithAlphaAndQualityChangesItsSize() throws IOException {
    BufferedImage picture = picture(64, 48, true);
    Path low = dir.resolve("low.avif");
    Path high = dir.resolve("high.avif");

    try (VipsImage image = vips.fromPixels(rgba(picture), 64, 48, 4)) {
      vips.saveAvif(image, low, 20, 4);
      vips.saveAvif(image, high, 95, 4);
    }

    try (VipsImage decoded = vips.openHeif(high, -1)) {
      assertThat(decoded.string("heif-compression")).hasValue("av1");
      assertThat(decoded.width()).isEqualTo(64);
      assertThat(decoded.height()).isEqualTo(48);
      assertThat(decoded.bands()).isEqualTo(4);
      byte[] pixels = decoded.bytes();
      // left half red at alpha 128, right half opaque blue
      int left = (20 * 64 + 8) * 4;
      int right = (20 * 64 + 56) * 4;
      assertThat(pixels[left] & 0xFF).isGreaterThan(200);
      assertThat(pixels[left + 3] & 0xFF).isBetween(118, 138);
      assertThat(pixels[right + 2] & 0xFF).isGreaterThan(200);
      assertThat(pixels[right + 3] & 0xFF).isGreaterThan(245);
    }
    assertThat(Files.size(low)).isLessThan(Files.size(high));
  }

  @Test
  void saversReportFailuresAsVipsException() {
    try (VipsImage image = vips.fromPixels(new byte[3], 1, 1, 3)) {
      Path nowhere = dir.resolve("missing-folder/out.webp");
      assertThatThrownBy(() -> vips.saveWebp(image, nowhere, 80, false, 4))
          .isInstanceOf(VipsException.class)
          .hasMessageContaining("webpsave");
      assertThatThrownBy(() -> vips.saveAvif(image, dir.resolve("missing-folder/x.avif"), 50, 4))
          .isInstanceOf(VipsException.class)
          .hasMessageContaining("heifsave");
    }
  }

  private static byte[] rgba(BufferedImage image) {
    int width = image.getWidth();
    int height = image.getHeight();
    byte[] out = new byte[width * height * 4];
    int i = 0;
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        int argb = image.getRGB(x, y);
        out[i++] = (byte) (argb >>> 16);
        out[i++] = (byte) (argb >>> 8);
        out[i++] = (byte) argb;
        out[i++] = (byte) (argb >>> 24);
      }
    }
    return out;
  }

  @Test
  void residentMemoryStaysFlatOverManyThumbnails() throws IOException {
    Path jpeg = write(picture(1600, 1200, false), "jpeg");
    for (int i = 0; i < 20; i++) {
      thumbnailOnce(jpeg);
    }
    long before = residentKilobytes();
    for (int i = 0; i < 300; i++) {
      thumbnailOnce(jpeg);
    }
    long grown = residentKilobytes() - before;
    // A leaked 1.9 MP decode is 5.8 MB: 300 of them would be 1.7 GB.
    assertThat(grown).as("RSS growth over 300 thumbnails, kB").isLessThan(64 * 1024);
  }

  private void thumbnailOnce(Path jpeg) {
    try (VipsImage thumbnail = vips.thumbnail(jpeg, 256, 256, "")) {
      assertThat(thumbnail.bytes()).hasSize(256 * 192 * 3);
    }
  }

  private static long residentKilobytes() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new AssertionError("no VmRSS in /proc/self/status");
  }

  /** Red left half, blue right half; optionally half transparent. */
  private static BufferedImage picture(int width, int height, boolean alpha) {
    BufferedImage image =
        new BufferedImage(
            width, height, alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(alpha ? new Color(255, 0, 0, 128) : Color.RED);
    g.fillRect(0, 0, width / 2, height);
    g.setColor(Color.BLUE);
    g.fillRect(width / 2, 0, width - width / 2, height);
    g.dispose();
    return image;
  }

  private Path write(BufferedImage image, String format) throws IOException {
    Path file = Files.createTempFile(dir, "vips-", "." + format);
    assertThat(ImageIO.write(image, format, file.toFile())).isTrue();
    return file;
  }

  private static int[] rgb(byte[] pixels, int offset) {
    return new int[] {pixels[offset] & 0xFF, pixels[offset + 1] & 0xFF, pixels[offset + 2] & 0xFF};
  }
}
