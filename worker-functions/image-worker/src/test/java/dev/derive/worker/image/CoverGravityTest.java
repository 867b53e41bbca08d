package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.message.Operation;
import dev.derive.worker.runtime.SampleCorpus;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resize operation's {@code gravity} for a cover crop (issue 29: smart crop and focal point),
 * checked by where the kept subject lands in the output.
 */
class CoverGravityTest {
  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  /** A grey, softly noisy 1200 x 400 picture with a red disc centred at ({@code x}, 200). */
  private static byte[] subjectAt(int x) throws IOException {
    BufferedImage image = new BufferedImage(1200, 400, BufferedImage.TYPE_INT_RGB);
    Random random = new Random(7);
    for (int y = 0; y < 400; y++) {
      for (int i = 0; i < 1200; i++) {
        int grey = 120 + random.nextInt(12);
        image.setRGB(i, y, grey << 16 | grey << 8 | grey);
      }
    }
    Graphics2D g = image.createGraphics();
    g.setColor(new Color(220, 30, 40));
    g.fillOval(x - 60, 140, 120, 120);
    g.dispose();
    return TestImages.encode(image, "png");
  }

  @Test
  void smartKeepsTheSalientSubjectThatTheCentreCropCutsOff() throws IOException {
    byte[] picture = subjectAt(150);

    BufferedImage centre = run(picture, cover(200, 200, "centre", null, null));
    BufferedImage smart = run(picture, cover(200, 200, "smart", null, null));
    BufferedImage entropy = run(picture, cover(200, 200, "entropy", null, null));

    assertThat(redShare(centre)).as("the centre crop misses the disc").isLessThan(0.01);
    assertThat(redShare(smart)).as("attention finds the disc").isGreaterThan(0.06);
    assertThat(redShare(entropy)).as("entropy finds the disc's edges").isGreaterThan(0.03);
  }

  @Test
  void aFocalPointMovesTheCropAndACompassPointKeepsItsSide() throws IOException {
    byte[] picture = subjectAt(1050);

    BufferedImage focused = run(picture, cover(200, 200, "focus", 87, 50));
    BufferedImage east = run(picture, cover(200, 200, "east", null, null));
    BufferedImage west = run(picture, cover(200, 200, "west", null, null));

    assertThat(redShare(focused)).isGreaterThan(0.06);
    assertThat(centreIsRed(focused)).as("the focal point is the middle of the crop").isTrue();
    assertThat(redShare(east)).isGreaterThan(0.06);
    assertThat(redShare(west)).isLessThan(0.01);
  }

  @Test
  void aFocalPointIsAsTheCallerSeesTheImageAfterRotate() throws IOException {
    byte[] picture = subjectAt(1050); // turned a quarter clockwise, the disc is near the bottom

    Map<String, Object> turn = Map.of("angle", 90);
    BufferedImage bottom =
        run(picture, new Operation(ImageRecipe.ROTATE, turn), cover(200, 200, "focus", 50, 87));
    BufferedImage top =
        run(picture, new Operation(ImageRecipe.ROTATE, turn), cover(200, 200, "north", null, null));

    assertThat(redShare(bottom)).isGreaterThan(0.06);
    assertThat(redShare(top)).isLessThan(0.01);
  }

  /** Smart crop keeps the hats of kodim03 (saturated colour), not the pale wall or the sky. */
  @Test
  void smartCropOfARealPhotoKeepsItsColourfulSubject() throws IOException {
    byte[] hats =
        Files.readAllBytes(
            SampleCorpus.samples().resolve("modern-images/kodim03_yuv420_8bpc.avif"));

    BufferedImage smart = run(hats, cover(100, 256, "smart", null, null));
    BufferedImage east = run(hats, cover(100, 256, "east", null, null));
    BufferedImage west = run(hats, cover(100, 256, "west", null, null));

    assertThat(smart.getWidth() + "x" + smart.getHeight()).isEqualTo("100x256");
    assertThat(saturation(smart))
        .as("mean saturation of the smart crop against the sides")
        .isGreaterThan(saturation(east))
        .isGreaterThan(saturation(west));
  }

  private BufferedImage run(byte[] input, Operation... operations) throws IOException {
    Path in = Files.createTempFile(dir, "in", ".bin");
    Path out = Files.createTempFile(dir, "out", ".png");
    Files.write(in, input);
    Operation[] all = new Operation[operations.length + 1];
    System.arraycopy(operations, 0, all, 0, operations.length);
    all[operations.length] = new Operation(ImageRecipe.ENCODE, Map.of("mediaType", "image/png"));
    transformer.transform(step(all), in, out);
    return ImageIO.read(out.toFile());
  }

  private static Operation cover(
      int width, int height, String gravity, Integer focusX, Integer focusY) {
    Map<String, Object> params = new HashMap<>();
    params.put("width", width);
    params.put("height", height);
    params.put("fit", "cover");
    params.put("gravity", gravity);
    if (focusX != null) {
      params.put("focusX", focusX);
      params.put("focusY", focusY);
    }
    return new Operation(ImageRecipe.RESIZE, params);
  }

  /** Share of strongly red pixels: the whole disc, 60 px across in a 200 x 200 crop, is 0.07. */
  private static double redShare(BufferedImage image) {
    long red = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        red += isRed(image.getRGB(x, y)) ? 1 : 0;
      }
    }
    return (double) red / ((long) image.getWidth() * image.getHeight());
  }

  private static boolean centreIsRed(BufferedImage image) {
    return isRed(image.getRGB(image.getWidth() / 2, image.getHeight() / 2));
  }

  private static boolean isRed(int rgb) {
    Color c = new Color(rgb);
    return c.getRed() > 170 && c.getGreen() < 90 && c.getBlue() < 90;
  }

  /** Mean HSB saturation. */
  private static double saturation(BufferedImage image) {
    double sum = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        Color c = new Color(image.getRGB(x, y));
        sum += Color.RGBtoHSB(c.getRed(), c.getGreen(), c.getBlue(), null)[1];
      }
    }
    return sum / ((long) image.getWidth() * image.getHeight());
  }
}
