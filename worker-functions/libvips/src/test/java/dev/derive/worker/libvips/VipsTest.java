package dev.derive.worker.libvips;

import static dev.derive.worker.libvips.TestPictures.filled;
import static dev.derive.worker.libvips.TestPictures.halves;
import static dev.derive.worker.libvips.TestPictures.rgb;
import static dev.derive.worker.libvips.TestPictures.rgba;
import static dev.derive.worker.libvips.TestPictures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferUShort;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every libvips binding, called with real images: a wrong signature on a variadic downcall would
 * crash the JVM here rather than in production. libvips comes from this module's {@code
 * target/layer} ({@code -Dderive.libvips.path}, set by its surefire configuration), the layer as
 * Lambda extracts it.
 */
class VipsTest {
  @TempDir Path dir;

  private final Vips vips = loaded();

  /** Fails, never skips, when the build did not lay the layer out. */
  static Vips loaded() {
    try {
      return Vips.shared();
    } catch (VipsUnavailableException e) {
      throw new AssertionError(
          "libvips is missing: build worker-functions/libvips (./mvnw -pl worker-functions/libvips"
              + " install -DskipTests), which fetches @img/sharp-libvips from the npm registry into"
              + " target/layer; "
              + e.getMessage(),
          e);
    }
  }

  @Test
  void loadsLibvips8187FromTheLayerFolderOfThisPlatform() {
    assertThat(vips.version()).isEqualTo("8.18.7");
    assertThat(vips.library().toString()).endsWith(Vips.platform() + "/lib/" + Vips.LIBRARY_FILE);
    assertThat(vips.library().isAbsolute()).isTrue();
    assertThat(Vips.shared()).isSameAs(vips);
  }

  @Test
  void theSettingNamesAFileAFolderOrALayerAndDefaultsToOptLib() {
    String saved = System.getProperty(Vips.PATH_PROPERTY);
    try {
      System.setProperty(Vips.PATH_PROPERTY, vips.library().toString());
      assertThat(Vips.candidates()).containsExactly(vips.library());

      Path layer = vips.library().getParent().getParent();
      System.setProperty(Vips.PATH_PROPERTY, layer.toString());
      assertThat(Vips.candidates()).contains(vips.library());

      System.clearProperty(Vips.PATH_PROPERTY);
      if (System.getenv(Vips.PATH_ENVIRONMENT) == null) {
        assertThat(Vips.candidates())
            .allMatch(p -> p.startsWith("/opt/lib"))
            .contains(Path.of("/opt/lib", Vips.LIBRARY_FILE));
      }
    } finally {
      if (saved == null) {
        System.clearProperty(Vips.PATH_PROPERTY);
      } else {
        System.setProperty(Vips.PATH_PROPERTY, saved);
      }
    }
  }

  @Test
  void theCxxRuntimeIsFoundOnThisSystemAndAMissingOneIsNamed() throws IOException {
    Vips.requireCxxRuntime(vips.library(), Vips.CXX_RUNTIME);

    Path library = dir.resolve("lib").resolve(Vips.LIBRARY_FILE);
    Files.createDirectories(library.getParent());
    assertThatThrownBy(
            () -> Vips.requireCxxRuntime(library, List.of("libderive-no-such-runtime.so.6")))
        .isInstanceOf(VipsUnavailableException.class)
        .hasMessageContaining("libderive-no-such-runtime.so.6 is not installed")
        .hasMessageContaining(library.getParent().toString())
        .hasMessageContaining("GLIBCXX_3.4.22");

    // A copy beside the library is what its RUNPATH ($ORIGIN) finds.
    Files.createFile(library.resolveSibling("libderive-no-such-runtime.so.6"));
    Vips.requireCxxRuntime(library, List.of("libderive-no-such-runtime.so.6"));
  }

  @Test
  void openReadsTheHeaderOfAPng() throws IOException {
    Path png = write(dir, halves(64, 48, true), "png");

    try (VipsImage image = vips.open(png)) {
      assertThat(image.width()).isEqualTo(64);
      assertThat(image.height()).isEqualTo(48);
      assertThat(image.bands()).isEqualTo(4);
      assertThat(image.bytesPerPixel()).isEqualTo(4);
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
    Path png = write(dir, halves(64, 48, false), "png");

    try (VipsImage image = vips.open(png)) {
      byte[] pixels = image.bytes();
      assertThat(pixels).hasSize(64 * 48 * 3);
      assertThat(rgb(pixels, 0)).containsExactly(255, 0, 0);
      assertThat(rgb(pixels, (47 * 64 + 63) * 3)).containsExactly(0, 0, 255);
    }
  }

  @Test
  void thumbnailShrinksAJpegIntoTheBoxAndNeverEnlarges() throws IOException {
    Path jpeg = write(dir, halves(400, 200, false), "jpeg");

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
  void thumbnailPassesLoadOptionsSuchAsThePage() throws IOException {
    Path tiff =
        TestPictures.multipageTiff(
            dir, List.of(filled(40, 30, Color.GREEN), filled(40, 30, Color.MAGENTA)));

    try (VipsImage header = vips.open(tiff);
        VipsImage first = vips.thumbnail(tiff, 64, 64, "");
        VipsImage second = vips.thumbnail(tiff, 64, 64, "page=1")) {
      assertThat(header.pages()).isEqualTo(2);
      assertThat(rgb(first.bytes(), 0)).containsExactly(0, 255, 0);
      assertThat(rgb(second.bytes(), 0)).containsExactly(255, 0, 255);
    }
    assertThatThrownBy(() -> vips.thumbnail(tiff, 64, 64, "page=99").close())
        .isInstanceOf(VipsException.class);
  }

  @Test
  void thumbnailOfAnOpenImageTurnsItUprightUnlessToldNotTo() throws IOException {
    // EXIF orientation 6: stored 80 x 40, shown turned 90 degrees clockwise (40 x 80).
    Path jpeg = TestPictures.jpegWithOrientation(dir, halves(80, 40, false), 6);

    try (VipsImage image = vips.open(jpeg);
        VipsImage upright = vips.thumbnail(image, 100, 100);
        VipsImage stored = vips.thumbnail(image, 100, 100, false)) {
      assertThat(image.width()).isEqualTo(80);
      assertThat(upright.width()).isEqualTo(40);
      assertThat(upright.height()).isEqualTo(80);
      // the stored left half (red) is on top once turned clockwise
      assertThat(rgb(upright.bytes(), (5 * 40 + 20) * 3)[0]).isGreaterThan(200);
      assertThat(stored.width()).isEqualTo(80);
      assertThat(stored.height()).isEqualTo(40);
    }
  }

  @Test
  void resizeKeepsSixteenBits() throws IOException {
    BufferedImage grey = new BufferedImage(80, 40, BufferedImage.TYPE_USHORT_GRAY);
    short[] data = ((DataBufferUShort) grey.getRaster().getDataBuffer()).getData();
    Arrays.fill(data, (short) 0xC000);
    Path png = write(dir, grey, "png");

    try (VipsImage image = vips.open(png);
        VipsImage half = vips.resize(image, 0.5)) {
      assertThat(image.format()).isEqualTo(Vips.FORMAT_USHORT);
      assertThat(image.bytesPerPixel()).isEqualTo(2);
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
    Path png = write(dir, grey, "png");

    try (VipsImage image = vips.open(png);
        VipsImage srgb = vips.colourspace(image, Vips.INTERPRETATION_SRGB);
        VipsImage wide = vips.cast(srgb, Vips.FORMAT_USHORT);
        VipsImage narrow = vips.cast(wide, Vips.FORMAT_UCHAR)) {
      assertThat(srgb.bands()).isEqualTo(3);
      assertThat(srgb.format()).isEqualTo(Vips.FORMAT_UCHAR);
      assertThat(wide.format()).isEqualTo(Vips.FORMAT_USHORT);
      assertThat(wide.bytesPerPixel()).isEqualTo(6);
      assertThat(narrow.format()).isEqualTo(Vips.FORMAT_UCHAR);
      assertThat(narrow.bytes()).hasSize(8 * 8 * 3);
      assertThatThrownBy(narrow::shorts).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void openSequentialExtractAreaAndCopyMemoryCutARegionOut() throws IOException {
    Path png = write(dir, halves(64, 48, false), "png");

    try (VipsImage image = vips.openSequential(png);
        VipsImage region = vips.extractArea(image, 28, 10, 8, 4);
        VipsImage copy = vips.copyMemory(region)) {
      assertThat(copy.width()).isEqualTo(8);
      assertThat(copy.height()).isEqualTo(4);
      byte[] pixels = copy.bytes();
      assertThat(rgb(pixels, 0)).containsExactly(255, 0, 0); // x 28: still the red half
      assertThat(rgb(pixels, 7 * 3)).containsExactly(0, 0, 255); // x 35: the blue half
    }
    try (VipsImage image = vips.open(png)) {
      assertThatThrownBy(() -> vips.extractArea(image, 60, 0, 8, 4).close())
          .isInstanceOf(VipsException.class)
          .hasMessageContaining("extract_area");
    }
  }

  @Test
  void openSequentialFailsOnATruncatedFileWhenThePixelsAreRead() throws IOException {
    Path jpeg = write(dir, halves(256, 256, false), "jpeg");
    byte[] bytes = Files.readAllBytes(jpeg);
    Path truncated = dir.resolve("truncated.jpg");
    Files.write(truncated, Arrays.copyOf(bytes, bytes.length / 2));

    try (VipsImage image = vips.openSequential(truncated)) {
      assertThat(image.width()).isEqualTo(256);
      assertThatThrownBy(image::bytes).isInstanceOf(VipsException.class);
    }
  }

  @Test
  void openHeifReadsAnAvifAndItsPages() throws IOException {
    Path avif = dir.resolve("picture.avif");
    try (VipsImage image = vips.fromPixels(rgba(halves(64, 48, true)), 64, 48, 4)) {
      vips.saveAvif(image, avif, 80, 4);
    }

    try (VipsImage primary = vips.openHeif(avif, -1);
        VipsImage first = vips.openHeif(avif, 0)) {
      assertThat(primary.width()).isEqualTo(64);
      assertThat(primary.height()).isEqualTo(48);
      assertThat(primary.string("heif-compression")).hasValue("av1");
      assertThat(primary.pages()).isEqualTo(1);
      assertThat(first.width()).isEqualTo(64);
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
    assertThatThrownBy(() -> vips.openSequential(text))
        .isInstanceOf(VipsException.class)
        .hasMessageContaining("not a known file format");
    assertThatThrownBy(() -> vips.openHeif(text, -1)).isInstanceOf(VipsException.class);
    assertThatThrownBy(() -> vips.thumbnail(text, 10, 10, ""))
        .isInstanceOf(VipsException.class)
        .hasMessageContaining("not a known file format");
  }

  @Test
  void aClosedImageRefusesUseAndClosesOnce() throws IOException {
    VipsImage image = vips.open(write(dir, halves(4, 4, false), "png"));
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
  void intHeaderFieldsAreSetOnACopyAndReadBackWithTheFramesDelays() {
    // two 4 x 2 frames stacked: page-height 2, saved as a GIF and loaded with all its pages
    byte[] samples = new byte[4 * 4 * 3];
    java.util.Arrays.fill(samples, 0, 24, (byte) 200);
    Path gif = dir.resolve("two.gif");
    try (VipsImage tall = vips.fromPixels(samples, 4, 4, 3);
        VipsImage copy = vips.operation("copy").set("in", tall).image()) {
      assertThat(copy.integer("page-height")).isEmpty();
      copy.set("page-height", 2);
      assertThat(copy.integer("page-height")).hasValue(2);
      assertThat(copy.ints("delay")).isEmpty();
      vips.saveGif(copy, gif, Vips.GIF_MIN_EFFORT);
    }
    try (VipsImage frames =
        vips.operation("gifload").set("filename", gif.toString()).set("n", -1).image()) {
      assertThat(frames.integer("page-height")).hasValue(2);
      assertThat(frames.pages()).isEqualTo(2);
      assertThat(frames.ints("delay")).hasValueSatisfying(d -> assertThat(d).hasSize(2));
      assertThat(frames.integer("loop")).isPresent();
    }
    try (VipsImage frames =
            vips.operation("gifload").set("filename", gif.toString()).set("n", -1).image();
        VipsImage second = vips.extractArea(frames, 1, 2, 3, 2)) {
      assertThat(second.integer("xoffset")).hasValue(-1);
      assertThat(second.integer("yoffset")).hasValue(-2);
    }
  }

  @Test
  void saveWebpWritesLosslessExactlyAndLossySmallerAtLowerQuality() throws IOException {
    BufferedImage gradient = halves(64, 48, true);
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
    Path low = dir.resolve("low.avif");
    Path high = dir.resolve("high.avif");

    try (VipsImage image = vips.fromPixels(rgba(halves(64, 48, true)), 64, 48, 4)) {
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
  void saveGifWritesAPaletteImageWithOneTransparentColourAndNoMetadata() throws IOException {
    BufferedImage picture = halves(64, 48, false);
    for (int y = 0; y < 8; y++) {
      for (int x = 0; x < 64; x++) {
        picture.setRGB(x, y, 0); // ARGB 0: a transparent top band once alpha is added
      }
    }
    BufferedImage withAlpha = new BufferedImage(64, 48, BufferedImage.TYPE_INT_ARGB);
    for (int y = 0; y < 48; y++) {
      for (int x = 0; x < 64; x++) {
        withAlpha.setRGB(x, y, y < 8 ? 0 : picture.getRGB(x, y) | 0xFF000000);
      }
    }
    Path fast = dir.resolve("fast.gif");
    Path best = dir.resolve("best.gif");

    try (VipsImage image = vips.fromPixels(rgba(withAlpha), 64, 48, 4)) {
      vips.saveGif(image, fast, Vips.GIF_MIN_EFFORT);
      vips.saveGif(image, best, Vips.GIF_MAX_EFFORT);
      assertThatThrownBy(() -> vips.saveGif(image, fast, 0))
          .isInstanceOf(IllegalArgumentException.class);
    }

    assertThat(Files.readAllBytes(best)).startsWith("GIF89a".getBytes());
    BufferedImage decoded = ImageIO.read(best.toFile());
    assertThat(decoded.getWidth()).isEqualTo(64);
    assertThat(decoded.getHeight()).isEqualTo(48);
    assertThat(decoded.getRGB(10, 2) >>> 24).isZero(); // transparent band
    assertThat(decoded.getRGB(10, 30)).isEqualTo(0xFFFF0000); // red, opaque
    assertThat(decoded.getRGB(50, 30)).isEqualTo(0xFF0000FF); // blue, opaque
    try (VipsImage read = vips.open(fast)) {
      assertThat(read.string("vips-loader")).hasValue("gifload");
      assertThat(read.string("exif-data")).isEmpty();
    }
  }

  @Test
  void saversReportFailuresAsVipsException() {
    try (VipsImage image = vips.fromPixels(new byte[3], 1, 1, 3)) {
      assertThatThrownBy(() -> vips.saveWebp(image, dir.resolve("missing/out.webp"), 80, false, 4))
          .isInstanceOf(VipsException.class)
          .hasMessageContaining("webpsave");
      assertThatThrownBy(() -> vips.saveAvif(image, dir.resolve("missing/x.avif"), 50, 4))
          .isInstanceOf(VipsException.class)
          .hasMessageContaining("heifsave");
      assertThatThrownBy(() -> vips.saveGif(image, dir.resolve("missing/x.gif"), 7))
          .isInstanceOf(VipsException.class)
          .hasMessageContaining("gifsave");
    }
  }

  @Test
  void fromPixelsTagsFourBandsAsSrgbWithAlphaAndOneOrTwoAsGrey() {
    try (VipsImage rgba = vips.fromPixels(new byte[2 * 2 * 4], 2, 2, 4);
        VipsImage grey = vips.fromPixels(new byte[2 * 2 * 2], 2, 2, 2)) {
      assertThat(rgba.interpretation()).isEqualTo(Vips.INTERPRETATION_SRGB);
      assertThat(rgba.hasAlpha()).isTrue();
      assertThat(grey.interpretation()).isEqualTo(Vips.INTERPRETATION_B_W);
      assertThat(grey.hasAlpha()).isTrue();
    }
  }

  /**
   * Issue 30 item 1: a GIF of a picture with alpha came out with every other column transparent and
   * the colours wrong, as the 4-band image reached gifsave untagged. Every pixel of a smooth RGBA
   * picture with a transparent corner is checked here against what was saved.
   */
  @Test
  void aGifOfAnRgbaPictureKeepsEveryColumnAndItsColours() throws IOException {
    BufferedImage picture = new BufferedImage(96, 64, BufferedImage.TYPE_INT_ARGB);
    for (int y = 0; y < 64; y++) {
      for (int x = 0; x < 96; x++) {
        boolean clear = x < 24 && y < 16;
        picture.setRGB(x, y, clear ? 0 : 0xFF000000 | (x * 2) << 16 | (y * 3) << 8 | 0x80);
      }
    }
    Path gif = dir.resolve("rgba.gif");
    try (VipsImage image = vips.fromPixels(rgba(picture), 96, 64, 4)) {
      vips.saveGif(image, gif, 7);
    }

    BufferedImage decoded = ImageIO.read(gif.toFile());
    for (int y = 0; y < 64; y++) {
      for (int x = 0; x < 96; x++) {
        int expected = picture.getRGB(x, y);
        int actual = decoded.getRGB(x, y);
        assertThat(actual >>> 24).as("alpha at %d,%d", x, y).isEqualTo(expected >>> 24);
        if (expected >>> 24 != 0) {
          for (int shift = 0; shift <= 16; shift += 8) {
            assertThat(Math.abs((actual >> shift & 0xFF) - (expected >> shift & 0xFF)))
                .as("channel %d at %d,%d", shift, x, y)
                .isLessThan(20);
          }
        }
      }
    }
  }

  @Test
  void anOperationIsCalledByNameWithNumbersEnumsAndImagesAndReturnsItsOutputs() {
    BufferedImage framed = filled(60, 40, Color.WHITE);
    for (int y = 10; y < 30; y++) {
      for (int x = 20; x < 50; x++) {
        framed.setRGB(x, y, 0x102030);
      }
    }
    try (VipsImage image = vips.fromPixels(samples(framed), 60, 40, 3)) {
      Map<String, Object> box =
          vips.operation("find_trim")
              .set("in", image)
              .set("threshold", 10.0)
              .run("left", "top", "width", "height");
      assertThat(box)
          .containsExactly(
              Map.entry("left", 20),
              Map.entry("top", 10),
              Map.entry("width", 30),
              Map.entry("height", 20));

      try (VipsImage blurred =
              vips.operation("gaussblur").set("in", image).set("sigma", 3.0).image();
          VipsImage cut =
              vips.operation("smartcrop")
                  .set("input", image)
                  .set("width", 20)
                  .set("height", 20)
                  .set("interesting", "centre")
                  .image()) {
        double[] edge =
            (double[])
                vips.operation("getpoint")
                    .set("in", blurred)
                    .set("x", 20)
                    .set("y", 20)
                    .run("out_array")
                    .get("out_array");
        assertThat(edge).hasSize(3);
        assertThat(edge[0])
            .as("blurred edge is between white and the dark box")
            .isBetween(40.0, 220.0);
        assertThat(cut.width()).isEqualTo(20);
      }
      try (VipsImage joined =
          vips.operation("arrayjoin").set("in", new VipsImage[] {image, image}).image()) {
        assertThat(joined.width()).isEqualTo(120);
      }
      assertThatThrownBy(() -> vips.operation("no_such_operation").image())
          .isInstanceOf(VipsException.class)
          .hasMessageContaining("no_such_operation");
      assertThatThrownBy(
              () ->
                  vips.operation("smartcrop")
                      .set("input", image)
                      .set("interesting", "nonsense")
                      .image())
          .isInstanceOf(VipsException.class)
          .hasMessageContaining("interesting");
      assertThatThrownBy(
              () -> vips.operation("gaussblur").set("in", image).set("sigma", "x").image())
          .isInstanceOf(VipsException.class)
          .hasMessageContaining("sigma");
    }
  }

  /** The interleaved 8-bit R, G, B samples of an opaque picture. */
  private static byte[] samples(BufferedImage image) {
    byte[] withAlpha = rgba(image);
    byte[] out = new byte[withAlpha.length / 4 * 3];
    for (int i = 0, j = 0; i < withAlpha.length; i += 4) {
      out[j++] = withAlpha[i];
      out[j++] = withAlpha[i + 1];
      out[j++] = withAlpha[i + 2];
    }
    return out;
  }

  @Test
  void hasTellsWhetherAHeaderFieldIsThere() throws IOException {
    Path jpeg = write(dir, filled(8, 8, Color.RED), "jpeg");

    try (VipsImage image = vips.open(jpeg)) {
      assertThat(image.has("vips-loader")).isTrue();
      assertThat(image.has(VipsImage.ICC_PROFILE)).as("the JDK writes no profile").isFalse();
      assertThat(image.blob(VipsImage.ICC_PROFILE)).isEmpty();
    }
    try (VipsImage image = vips.open(jpeg);
        VipsImage tagged =
            vips.operation("icc_transform")
                .set("in", image)
                .set("input_profile", "srgb")
                .set("output_profile", "srgb")
                .image()) {
      byte[] profile = tagged.blob(VipsImage.ICC_PROFILE).orElseThrow();
      assertThat(new String(profile, 36, 4, java.nio.charset.StandardCharsets.US_ASCII))
          .as("an ICC profile's signature")
          .isEqualTo("acsp");
    }
  }

  @Test
  void aByteArrayReachesALoaderAsItsBuffer() {
    byte[] svg =
        ("<svg xmlns='http://www.w3.org/2000/svg' width='40' height='20'>"
                + "<rect width='20' height='20' fill='#ff0000'/></svg>")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);

    try (VipsImage drawn =
        vips.operation("svgload_buffer").set("buffer", svg).set("scale", 2.0).image()) {
      assertThat(drawn.width()).isEqualTo(80);
      assertThat(drawn.height()).isEqualTo(40);
      byte[] pixels = drawn.bytes();
      assertThat(pixels[(20 * 80 + 10) * 4] & 0xFF).as("red, left").isEqualTo(255);
      assertThat(pixels[(20 * 80 + 70) * 4 + 3] & 0xFF).as("clear, right").isZero();
    }
  }
}
