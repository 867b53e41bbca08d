package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
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

/** pad (issue 29 part 2): the border's size, colour and place, measured on the output's pixels. */
class PaddingTest {
  @TempDir Path dir;

  private static final Operation PAD_10_20_30_40 =
      new Operation("pad", Map.of("padTop", 10, "padRight", 20, "padBottom", 30, "padLeft", 40));

  /** 100 x 60 of opaque red. */
  private static byte[] red() throws IOException {
    return TestImages.encode(TestImages.bands(100, 60, Color.RED, Color.RED), "png");
  }

  @Test
  void theBorderHasItsSidesAndTheResizesBackground() throws IOException {
    BufferedImage out =
        run(
            red(),
            new ImageTransformer(100_000_000),
            "image/png",
            new Operation("resize", Map.of("width", 50)),
            TestImages.background("#00ff00"),
            PAD_10_20_30_40);

    assertThat(out.getWidth()).isEqualTo(40 + 50 + 20);
    assertThat(out.getHeight()).isEqualTo(10 + 30 + 30);
    // the image's corners sit exactly inside the border, which is the background on every side
    assertThat(rgb(out, 40, 10)).isEqualTo(0xFF0000);
    assertThat(rgb(out, 89, 39)).isEqualTo(0xFF0000);
    assertThat(rgb(out, 39, 20)).as("left").isEqualTo(0x00FF00);
    assertThat(rgb(out, 90, 20)).as("right").isEqualTo(0x00FF00);
    assertThat(rgb(out, 60, 9)).as("top").isEqualTo(0x00FF00);
    assertThat(rgb(out, 60, 40)).as("bottom").isEqualTo(0x00FF00);
    assertThat(rgb(out, 0, 0)).isEqualTo(0x00FF00);
    assertThat(rgb(out, 109, 69)).isEqualTo(0x00FF00);
  }

  @Test
  void withoutABackgroundTheBorderIsClearInAPngAndWhiteInAJpeg() throws IOException {
    BufferedImage png = run(red(), new ImageTransformer(100_000_000), "image/png", PAD_10_20_30_40);
    assertThat(png.getWidth()).isEqualTo(160);
    assertThat(png.getHeight()).isEqualTo(100);
    assertThat(png.getRGB(5, 5) >>> 24).as("border alpha").isZero();
    assertThat(png.getRGB(50, 20)).as("opaque red inside").isEqualTo(0xFFFF0000);

    BufferedImage jpeg =
        run(red(), new ImageTransformer(100_000_000), "image/jpeg", PAD_10_20_30_40);
    Color border = new Color(jpeg.getRGB(5, 5));
    assertThat(border.getRed() + border.getGreen() + border.getBlue()).isGreaterThan(3 * 250);
    Color inside = new Color(jpeg.getRGB(90, 40));
    assertThat(inside.getRed()).isGreaterThan(240);
    assertThat(inside.getGreen()).isLessThan(15);
  }

  @Test
  void theBorderComesAfterTheBlurSoItStaysFlat() throws IOException {
    BufferedImage out =
        run(
            red(),
            new ImageTransformer(100_000_000),
            "image/png",
            new Operation("resize", Map.of("width", 100)),
            TestImages.background("#0000ff"),
            new Operation("blur", Map.of("blur", 5)),
            PAD_10_20_30_40);

    assertThat(rgb(out, 39, 40)).as("next to the image").isEqualTo(0x0000FF);
    assertThat(rgb(out, 140, 40)).isEqualTo(0x0000FF);
    assertThat(rgb(out, 40, 40)).as("the picture's edge stays red").isEqualTo(0xFF0000);
  }

  @Test
  void aBorderTakingTheOutputOverThePixelLimitIsRefused() {
    ImageTransformer small =
        new ImageTransformer(10_000); // the 100 x 60 input fits, 160 x 100 does not
    assertThatThrownBy(() -> run(red(), small, "image/png", PAD_10_20_30_40))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            f -> {
              assertThat(f.type()).isEqualTo(StepErrorTypes.OUTPUT_TOO_LARGE);
              assertThat(f.detail()).contains("160x100");
            });
  }

  private BufferedImage run(
      byte[] input, ImageTransformer transformer, String mediaType, Operation... before)
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
