package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.message.Operation;
import java.awt.Color;
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

/** blur and sharpen (issue 29 part 2), checked by what they do to an edge and to flat areas. */
class EffectsTest {
  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  /** 200 x 100: dark grey left half, light grey right half (a vertical edge at x = 100). */
  private static byte[] edge() throws IOException {
    return TestImages.encode(
        TestImages.bands(200, 100, new Color(60, 60, 60), new Color(190, 190, 190)), "png");
  }

  @Test
  void blurSoftensTheEdgeAndLeavesFlatAreasAlone() throws IOException {
    BufferedImage plain = run(edge(), List.of(), "image/png");
    BufferedImage blurred =
        run(edge(), List.of(new Operation("blur", Map.of("blur", 4))), "image/png");

    assertThat(grey(plain, 97)).isEqualTo(60);
    assertThat(grey(blurred, 97)).as("3 px left of the edge").isBetween(75, 125);
    assertThat(grey(blurred, 102)).as("2 px right of the edge").isBetween(125, 175);
    assertThat(grey(blurred, 20)).as("far from the edge").isBetween(58, 62);
    assertThat(grey(blurred, 180)).isBetween(188, 192);
  }

  @Test
  void sharpenOvershootsBothSidesOfTheEdge() throws IOException {
    byte[] soft =
        TestImages.encode(
            run(edge(), List.of(new Operation("blur", Map.of("blur", 1))), "image/png"), "png");

    BufferedImage before = run(soft, List.of(), "image/png");
    BufferedImage after =
        run(soft, List.of(new Operation("sharpen", Map.of("sharpen", 15))), "image/png");

    int contrastBefore = grey(before, 101) - grey(before, 98);
    int contrastAfter = grey(after, 101) - grey(after, 98);
    assertThat(contrastAfter).as("contrast across the edge").isGreaterThan(contrastBefore + 10);
    assertThat(grey(after, 20)).as("flat area").isBetween(57, 63);
  }

  @Test
  void blurringATransparentPictureLendsNoColourFromItsClearPixels() throws IOException {
    BufferedImage picture = new BufferedImage(100, 60, BufferedImage.TYPE_INT_ARGB);
    for (int y = 0; y < 60; y++) {
      for (int x = 0; x < 100; x++) {
        // clear pixels whose colour is black: a blur that ignored alpha would darken the blue
        picture.setRGB(x, y, x < 50 ? 0x00000000 : 0xFF2040E0);
      }
    }
    BufferedImage blurred =
        run(
            TestImages.encode(picture, "png"),
            List.of(new Operation("blur", Map.of("blur", 3))),
            "image/png");

    Color edge = new Color(blurred.getRGB(50, 30), true);
    assertThat(edge.getAlpha()).isBetween(60, 200);
    assertThat(edge.getBlue()).as("the edge stays blue, not darkened").isGreaterThan(200);
    assertThat(edge.getRed()).isBetween(20, 45);
  }

  private BufferedImage run(byte[] input, List<Operation> effects, String mediaType)
      throws IOException {
    Path in = Files.createTempFile(dir, "in", ".bin");
    Path out = Files.createTempFile(dir, "out", ".bin");
    Files.write(in, input);
    List<Operation> operations = new ArrayList<>(effects);
    operations.add(new Operation(ImageRecipe.ENCODE, Map.of("mediaType", mediaType)));
    transformer.transform(step(operations.toArray(Operation[]::new)), in, out);
    return ImageIO.read(out.toFile());
  }

  private static int grey(BufferedImage image, int x) {
    return new Color(image.getRGB(x, image.getHeight() / 2)).getGreen();
  }
}
