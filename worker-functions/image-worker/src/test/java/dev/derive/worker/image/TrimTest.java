package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.message.Operation;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** trim (issue 29 part 2): what is cut off, measured on the output's size and pixels. */
class TrimTest {
  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  /**
   * 200 x 120 of {@code border}, an 80 x 40 rectangle at (30, 50): its left half red, its right
   * half blue.
   */
  private static BufferedImage framed(Color border, int type) {
    BufferedImage image = new BufferedImage(200, 120, type);
    Graphics2D g = image.createGraphics();
    try {
      g.setComposite(java.awt.AlphaComposite.Src);
      g.setColor(border);
      g.fillRect(0, 0, 200, 120);
      g.setColor(Color.RED);
      g.fillRect(30, 50, 40, 40);
      g.setColor(Color.BLUE);
      g.fillRect(70, 50, 40, 40);
    } finally {
      g.dispose();
    }
    return image;
  }

  private static Operation trim(int threshold) {
    return new Operation("trim", Map.of("trim", threshold));
  }

  @Test
  void aUniformBorderIsCutOffExactly() throws IOException {
    BufferedImage out =
        run(
            TestImages.encode(framed(Color.WHITE, BufferedImage.TYPE_INT_RGB), "png"),
            "image/png",
            trim(10));

    assertThat(out.getWidth()).isEqualTo(80);
    assertThat(out.getHeight()).isEqualTo(40);
    assertThat(rgb(out, 0, 0)).isEqualTo(0xFF0000);
    assertThat(rgb(out, 79, 39)).isEqualTo(0x0000FF);
  }

  @Test
  void aJpegsNoisyBorderIsCutWithinTheThreshold() throws IOException {
    BufferedImage out =
        run(
            TestImages.encode(framed(Color.WHITE, BufferedImage.TYPE_INT_RGB), "jpg"),
            "image/png",
            trim(40));

    // the JPEG's blocks smear the edges by a pixel or two; no white row or column is left
    assertThat(out.getWidth()).isBetween(78, 82);
    assertThat(out.getHeight()).isBetween(38, 42);
    Color corner = new Color(out.getRGB(2, 2));
    assertThat(corner.getRed()).isGreaterThan(200);
    assertThat(corner.getGreen()).isLessThan(60);
  }

  @Test
  void aClearBorderIsCutOffAPictureWithAlpha() throws IOException {
    BufferedImage out =
        run(
            TestImages.encode(framed(new Color(0, 0, 0, 0), BufferedImage.TYPE_INT_ARGB), "png"),
            "image/png",
            trim(10));

    assertThat(out.getWidth()).isEqualTo(80);
    assertThat(out.getHeight()).isEqualTo(40);
    assertThat(out.getRGB(0, 0)).isEqualTo(0xFFFF0000);
  }

  @Test
  void theBordersColourIsTheTopLeftPixelsUnlessGiven() throws IOException {
    byte[] green = TestImages.encode(framed(Color.GREEN, BufferedImage.TYPE_INT_RGB), "png");

    assertThat(run(green, "image/png", trim(10)).getWidth()).isEqualTo(80);
    BufferedImage white =
        run(green, "image/png", new Operation("trim", Map.of("trim", 10, "trimColour", "#ffffff")));
    assertThat(white.getWidth()).as("green is not the border now").isEqualTo(200);
  }

  @Test
  void aCropIsCutFromWhatTheTrimLeavesAndTheResizeFitsIt() throws IOException {
    byte[] input = TestImages.encode(framed(Color.WHITE, BufferedImage.TYPE_INT_RGB), "png");

    BufferedImage cropped =
        run(
            input,
            "image/png",
            trim(10),
            new Operation("crop", Map.of("left", 40, "top", 0, "width", 40, "height", 40)));
    assertThat(cropped.getWidth()).isEqualTo(40);
    assertThat(rgb(cropped, 0, 0)).as("the trimmed image's right half").isEqualTo(0x0000FF);
    assertThat(rgb(cropped, 39, 39)).isEqualTo(0x0000FF);

    BufferedImage resized = run(input, "image/png", trim(10), TestImages.resize(40, 40));
    assertThat(resized.getWidth()).isEqualTo(40);
    assertThat(resized.getHeight()).isEqualTo(20);
  }

  @Test
  void anImageThatIsAllBorderIsKeptWhole() throws IOException {
    BufferedImage out =
        run(TestImages.encode(TestImages.bands(60, 30, Color.GRAY), "png"), "image/png", trim(10));

    assertThat(out.getWidth()).isEqualTo(60);
    assertThat(out.getHeight()).isEqualTo(30);
  }

  @Test
  void theBorderIsFoundOnTheUprightImage() throws IOException {
    // stored turned a quarter (EXIF 6: shown rotated 90 degrees clockwise)
    BufferedImage stored = framed(Color.WHITE, BufferedImage.TYPE_INT_RGB);
    BufferedImage out = run(TestImages.jpegWithOrientation(stored, 6), "image/png", trim(40));

    assertThat(out.getWidth()).as("upright: the rectangle stands").isBetween(38, 42);
    assertThat(out.getHeight()).isBetween(78, 82);
    Color top = new Color(out.getRGB(20, 5));
    assertThat(top.getRed()).as("red, once at the left, is on top").isGreaterThan(200);
  }

  /**
   * A turned JPEG is trimmed upright (libvips decodes it whole and turns it before the border is
   * looked for): orientation 6 shows the 80 x 40 rectangle as 40 x 80, its red half on top.
   */
  @Test
  void aTurnedJpegIsTrimmedUpright() throws IOException {
    BufferedImage out =
        run(
            TestImages.jpegWithOrientation(framed(Color.WHITE, BufferedImage.TYPE_INT_RGB), 6),
            "image/png",
            trim(40));

    assertThat(out.getWidth()).isBetween(38, 42);
    assertThat(out.getHeight()).isBetween(78, 82);
    Color top = new Color(out.getRGB(out.getWidth() / 2, 5));
    Color bottom = new Color(out.getRGB(out.getWidth() / 2, out.getHeight() - 5));
    assertThat(top.getRed()).as("top %s", top).isGreaterThan(200);
    assertThat(bottom.getBlue()).as("bottom %s", bottom).isGreaterThan(200);
  }

  private BufferedImage run(byte[] input, String mediaType, Operation... before)
      throws IOException {
    Path in = Files.createTempFile(dir, "in", ".bin");
    Path out = Files.createTempFile(dir, "out", ".bin");
    Files.write(in, input);
    List<Operation> operations = new ArrayList<>(List.of(before));
    operations.add(new Operation(ImageRecipe.ENCODE, Map.of("mediaType", mediaType)));
    transformer.transform(step(operations.toArray(Operation[]::new)), in, out);
    return ImageIO.read(out.toFile());
  }

  private static int rgb(BufferedImage image, int x, int y) {
    return image.getRGB(x, y) & 0xFFFFFF;
  }
}
