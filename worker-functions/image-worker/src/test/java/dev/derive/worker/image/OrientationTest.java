package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each EXIF orientation turns the stored pixels upright. The stored images are built from the EXIF
 * 2.32 definition of the tag (where the stored 0th row and 0th column lie in the upright picture),
 * independently of the code under test.
 */
class OrientationTest {
  private static final int UPRIGHT_WIDTH = 5;
  private static final int UPRIGHT_HEIGHT = 3;

  @TempDir Path dir;

  @ParameterizedTest(name = "orientation {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void toStoredFindsTheStoredRegionThatTurnsIntoAnUprightRegion(int tag) {
    BufferedImage upright = numbered(UPRIGHT_WIDTH, UPRIGHT_HEIGHT);
    BufferedImage stored = stored(upright, tag);
    Orientation orientation = Orientation.ofTag(tag);
    java.awt.Rectangle region = new java.awt.Rectangle(1, 1, 3, 2);

    java.awt.Rectangle storedRegion =
        orientation.toStored(region, stored.getWidth(), stored.getHeight());
    BufferedImage turned =
        orientation.apply(
            stored.getSubimage(
                storedRegion.x, storedRegion.y, storedRegion.width, storedRegion.height));

    assertThat(turned.getWidth()).isEqualTo(3);
    assertThat(turned.getHeight()).isEqualTo(2);
    for (int y = 0; y < 2; y++) {
      for (int x = 0; x < 3; x++) {
        assertThat(turned.getRGB(x, y) & 0xFFFFFF)
            .as("pixel (%d,%d) of the region", x, y)
            .isEqualTo(upright.getRGB(region.x + x, region.y + y) & 0xFFFFFF);
      }
    }
  }

  @ParameterizedTest(name = "orientation {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void applyTurnsEveryStoredLayoutUprightPixelForPixel(int tag) {
    BufferedImage upright = numbered(UPRIGHT_WIDTH, UPRIGHT_HEIGHT);

    BufferedImage result = Orientation.ofTag(tag).apply(stored(upright, tag));

    assertThat(result.getWidth()).isEqualTo(UPRIGHT_WIDTH);
    assertThat(result.getHeight()).isEqualTo(UPRIGHT_HEIGHT);
    for (int y = 0; y < UPRIGHT_HEIGHT; y++) {
      for (int x = 0; x < UPRIGHT_WIDTH; x++) {
        assertThat(result.getRGB(x, y) & 0xFFFFFF)
            .as("pixel (%d,%d)", x, y)
            .isEqualTo(upright.getRGB(x, y) & 0xFFFFFF);
      }
    }
  }

  @ParameterizedTest(name = "orientation {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void transformerAutoOrientsAJpegFromItsExifTag(int tag) throws IOException {
    BufferedImage upright = TestImages.quadrants(320, 160);
    Path input = dir.resolve("in.jpg");
    Path output = dir.resolve("out.jpg");
    Files.write(input, TestImages.jpegWithOrientation(stored(upright, tag), tag));

    new ImageTransformer(100_000_000)
        .transform(TestImages.step(TestImages.resize(160, 160)), input, output);

    assertQuadrants(ImageIO.read(output.toFile()), 160, 80, 20, 20, 140, 60);
  }

  @ParameterizedTest(name = "orientation {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void transformerAutoOrientsAPngFromItsExifChunk(int tag) throws IOException {
    BufferedImage upright = TestImages.quadrants(320, 160);
    Path input = dir.resolve("in.png");
    Files.write(input, TestImages.pngWithOrientation(stored(upright, tag), tag));

    assertUprightThumbnails(input);
  }

  @ParameterizedTest(name = "orientation {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void transformerAutoOrientsAWebpFromItsExifChunk(int tag) throws IOException {
    BufferedImage stored = stored(TestImages.quadrants(320, 160), tag);
    Path simple = dir.resolve("simple.webp");
    Vips vips = Vips.shared();
    try (VipsImage pixels =
        vips.fromPixels(rgb(stored), stored.getWidth(), stored.getHeight(), 3)) {
      vips.saveWebp(pixels, simple, 100, true, 0);
    }
    Path input = dir.resolve("in.webp");
    Files.write(
        input,
        TestImages.webpWithOrientation(
            Files.readAllBytes(simple), stored.getWidth(), stored.getHeight(), tag));

    assertUprightThumbnails(input);
  }

  @ParameterizedTest(name = "orientation {0}")
  @ValueSource(ints = {1, 6, 8})
  void exifChunksOfPngAndWebpAreReadAsImageIoDecodesThem(int tag) throws IOException {
    Path png = dir.resolve("in.png");
    Files.write(png, TestImages.pngWithOrientation(TestImages.quadrants(8, 4), tag));
    // ImageIO's WebP path (no libvips) never decodes here: a bitstream chunk of zeros will do
    byte[] simple = new byte[12 + 8 + 6];
    System.arraycopy("RIFF\0\0\0\0WEBPVP8L".getBytes(StandardCharsets.US_ASCII), 0, simple, 0, 16);
    simple[16] = 6;
    Path webp = dir.resolve("in.webp");
    Files.write(webp, TestImages.webpWithOrientation(simple, 8, 4, tag));

    assertThat(ExifOrientation.read(png, "png")).isEqualTo(Orientation.ofTag(tag));
    assertThat(ExifOrientation.read(webp, "webp")).isEqualTo(Orientation.ofTag(tag));
    assertThat(ExifOrientation.read(png, "gif")).isEqualTo(Orientation.TOP_LEFT);
  }

  /**
   * {@code input} (a 320x160 image of {@link TestImages#quadrants}, stored turned) made into a
   * thumbnail inside 160x160, into a 160x40 box, and into 80x80 covered: upright each time, the
   * upright image's aspect ratio (2:1) kept, each quadrant where it belongs.
   */
  private void assertUprightThumbnails(Path input) throws IOException {
    Path output = dir.resolve("out.png");
    ImageTransformer transformer = new ImageTransformer(100_000_000);

    transformer.transform(thumbnail(TestImages.resize(160, 160)), input, output);
    assertQuadrants(ImageIO.read(output.toFile()), 160, 80, 20, 20, 140, 60);

    transformer.transform(thumbnail(TestImages.resize(160, 40)), input, output);
    BufferedImage wide = ImageIO.read(output.toFile());
    assertThat(wide.getWidth()).isEqualTo(80);
    assertThat(wide.getHeight()).isEqualTo(40);
    assertColor(wide, 10, 10, TestImages.TOP_LEFT);
    assertColor(wide, 70, 30, TestImages.BOTTOM_RIGHT);

    transformer.transform(thumbnail(TestImages.resize(80, 80, "cover", false)), input, output);
    assertQuadrants(ImageIO.read(output.toFile()), 80, 80, 10, 10, 70, 70);
  }

  /**
   * {@code image} is {@code width} x {@code height} with the four colours of {@link
   * TestImages#quadrants} where they belong, sampled at columns {@code left} and {@code right} and
   * rows {@code top} and {@code bottom}.
   */
  private static void assertQuadrants(
      BufferedImage image, int width, int height, int left, int top, int right, int bottom) {
    assertThat(image.getWidth()).isEqualTo(width);
    assertThat(image.getHeight()).isEqualTo(height);
    assertColor(image, left, top, TestImages.TOP_LEFT);
    assertColor(image, right, top, TestImages.TOP_RIGHT);
    assertColor(image, left, bottom, TestImages.BOTTOM_LEFT);
    assertColor(image, right, bottom, TestImages.BOTTOM_RIGHT);
  }

  private static StepMessage thumbnail(Operation resize) {
    return TestImages.step(resize, TestImages.encode(MediaTypes.IMAGE_PNG, 85));
  }

  /** {@code image}'s pixels as 8-bit RGB, band-interleaved row after row. */
  private static byte[] rgb(BufferedImage image) {
    byte[] pixels = new byte[image.getWidth() * image.getHeight() * 3];
    for (int y = 0, p = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++, p += 3) {
        int argb = image.getRGB(x, y);
        pixels[p] = (byte) (argb >> 16);
        pixels[p + 1] = (byte) (argb >> 8);
        pixels[p + 2] = (byte) argb;
      }
    }
    return pixels;
  }

  /** An image whose every pixel has a distinct value. */
  private static BufferedImage numbered(int width, int height) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        image.setRGB(x, y, (y * width + x + 1) * 0x010203);
      }
    }
    return image;
  }

  /**
   * How a camera stores {@code upright} when it tags it with {@code tag}. EXIF 2.32, tag 0x0112: 1
   * = 0th row at the visual top, 0th column at the visual left; 2 = top, right; 3 = bottom, right;
   * 4 = bottom, left; 5 = 0th row at the visual left, 0th column at the top; 6 = right, top; 7 =
   * right, bottom; 8 = left, bottom.
   */
  private static BufferedImage stored(BufferedImage upright, int tag) {
    int vw = upright.getWidth();
    int vh = upright.getHeight();
    boolean rowsAreColumns = tag >= 5;
    // where the stored 0th row lies: top/bottom (tags 1-4) or left/right (5-8)
    boolean rowAtStart =
        switch (tag) {
          case 1, 2, 5, 8 -> true; // top or left
          default -> false; // bottom or right
        };
    boolean columnAtStart =
        switch (tag) {
          case 1, 4, 5, 6 -> true; // left or top
          default -> false; // right or bottom
        };
    int sw = rowsAreColumns ? vh : vw;
    int sh = rowsAreColumns ? vw : vh;
    BufferedImage stored = new BufferedImage(sw, sh, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < sh; y++) {
      for (int x = 0; x < sw; x++) {
        int vx;
        int vy;
        if (rowsAreColumns) {
          vx = rowAtStart ? y : vw - 1 - y;
          vy = columnAtStart ? x : vh - 1 - x;
        } else {
          vy = rowAtStart ? y : vh - 1 - y;
          vx = columnAtStart ? x : vw - 1 - x;
        }
        stored.setRGB(x, y, upright.getRGB(vx, vy));
      }
    }
    return stored;
  }

  private static void assertColor(BufferedImage image, int x, int y, Color expected) {
    Color actual = new Color(image.getRGB(x, y));
    assertThat(
            Math.abs(actual.getRed() - expected.getRed())
                + Math.abs(actual.getGreen() - expected.getGreen())
                + Math.abs(actual.getBlue() - expected.getBlue()))
        .as("colour at (%d,%d): %s, expected %s", x, y, actual, expected)
        .isLessThan(60);
  }
}
