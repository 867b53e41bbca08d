package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.resize;
import static dev.derive.worker.image.TestImages.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
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

/** GIF output through libvips' gifsave (cgif, libimagequant palette), read back with ImageIO. */
class GifOutputTest {
  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  @Test
  void jpegToGifIsAGif89aOfTheBoxWithTheColoursInPlaceAndNoMetadata() throws IOException {
    byte[] jpeg =
        TestImages.jpegWithOrientation(TestImages.quadrants(1200, 800), 1); // carries EXIF

    Path out = run(jpeg, resize(300, 300), encode(null), "photo");

    byte[] bytes = Files.readAllBytes(out);
    assertThat(new String(bytes, 0, 6, StandardCharsets.US_ASCII)).isEqualTo("GIF89a");
    assertThat(new String(bytes, StandardCharsets.ISO_8859_1))
        .doesNotContain("Exif")
        .doesNotContain("ICCRGBG1")
        .doesNotContain("XMP");
    BufferedImage image = ImageIO.read(out.toFile());
    assertThat(image.getWidth()).isEqualTo(300);
    assertThat(image.getHeight()).isEqualTo(200);
    near(image.getRGB(40, 40), TestImages.TOP_LEFT);
    near(image.getRGB(260, 40), TestImages.TOP_RIGHT);
    near(image.getRGB(40, 160), TestImages.BOTTOM_LEFT);
    near(image.getRGB(260, 160), TestImages.BOTTOM_RIGHT);
  }

  @Test
  void transparencyBecomesGifsTransparentColourAndPaddingIsTransparent() throws IOException {
    BufferedImage half = new BufferedImage(80, 40, BufferedImage.TYPE_INT_ARGB);
    for (int y = 0; y < 40; y++) {
      for (int x = 0; x < 80; x++) {
        half.setRGB(x, y, x < 40 ? 0x00000000 : 0xFF2040E0);
      }
    }
    Path out =
        run(
            TestImages.encode(half, "png"),
            TestImages.resize(80, 80, "contain", true, null),
            encode(null),
            "alpha");

    BufferedImage image = ImageIO.read(out.toFile());
    assertThat(image.getWidth()).isEqualTo(80);
    assertThat(image.getHeight()).isEqualTo(80);
    assertThat(image.getRGB(10, 40) >>> 24).as("transparent half").isZero();
    assertThat(image.getRGB(40, 5) >>> 24).as("padding").isZero();
    assertThat(image.getRGB(70, 40) >>> 24).as("opaque half").isEqualTo(0xFF);
    near(image.getRGB(70, 40), new Color(0x20, 0x40, 0xE0));
  }

  @Test
  void theStepsEffortReachesTheEncoder() throws IOException {
    byte[] jpeg = TestImages.encode(TestImages.quadrants(600, 400), "jpg");

    byte[] fast = Files.readAllBytes(run(jpeg, resize(300, 300), encode(0), "fast"));
    byte[] best = Files.readAllBytes(run(jpeg, resize(300, 300), encode(9), "best"));
    byte[] unset = Files.readAllBytes(run(jpeg, resize(300, 300), encode(null), "unset"));
    byte[] six = Files.readAllBytes(run(jpeg, resize(300, 300), encode(6), "six"));

    assertThat(fast).isNotEqualTo(best);
    assertThat(unset).as("no effort: libvips' 7, the step's 6").isEqualTo(six);
  }

  private Path run(byte[] input, Operation resize, Operation encode, String name)
      throws IOException {
    Path in = dir.resolve(name + ".in");
    Path out = dir.resolve(name + ".gif");
    Files.write(in, input);
    transformer.transform(step(resize, encode), in, out);
    return out;
  }

  private static Operation encode(Integer effort) {
    Map<String, Object> params = new HashMap<>();
    params.put("mediaType", MediaTypes.IMAGE_GIF);
    if (effort != null) {
      params.put("effort", effort);
    }
    return new Operation(ImageRecipe.ENCODE, params);
  }

  private static void near(int argb, Color expected) {
    Color actual = new Color(argb, true);
    assertThat(Math.abs(actual.getRed() - expected.getRed())).as("red").isLessThan(24);
    assertThat(Math.abs(actual.getGreen() - expected.getGreen())).as("green").isLessThan(24);
    assertThat(Math.abs(actual.getBlue() - expected.getBlue())).as("blue").isLessThan(24);
  }
}
