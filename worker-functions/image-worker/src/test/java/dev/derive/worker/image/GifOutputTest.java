package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.resize;
import static dev.derive.worker.image.TestImages.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.worker.runtime.SampleCorpus;
import java.awt.Color;
import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ColorModel;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.WritableRaster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
            TestImages.resize(80, 80, "contain", true),
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

  /**
   * Issue 30 item 1: sources with alpha made GIFs with vertical transparent stripes and wrong
   * colours. Each is made into a PNG (right) and a GIF of the same box, and the GIF must show the
   * PNG's picture: opaque where the PNG is, transparent where it is clear, colours within a
   * palette's error.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "modern-images/iss634.webp",
        "other-images/testWebp_Alpha_Lossless.webp",
        "modern-images/gopher-doc.with-alpha.lossless.webp",
        "16-bit RGBA PNG"
      })
  void aGifOfASourceWithAlphaShowsWhatThePngShows(String source) throws IOException {
    byte[] input =
        source.contains("/")
            ? Files.readAllBytes(SampleCorpus.samples().resolve(source))
            : sixteenBitRgbaPng(200, 150);

    BufferedImage png = ImageIO.read(run(input, resize(256, 256), png(), "reference").toFile());
    BufferedImage gif = ImageIO.read(run(input, resize(256, 256), encode(null), "gif").toFile());

    assertThat(gif.getWidth() + "x" + gif.getHeight())
        .isEqualTo(png.getWidth() + "x" + png.getHeight());
    long opaque = 0;
    long colourError = 0;
    long wrongAlpha = 0;
    for (int y = 0; y < png.getHeight(); y++) {
      for (int x = 0; x < png.getWidth(); x++) {
        int expected = png.getRGB(x, y);
        int actual = gif.getRGB(x, y);
        int alpha = expected >>> 24;
        if (alpha >= 250) {
          opaque++;
          wrongAlpha += (actual >>> 24) == 0xFF ? 0 : 1;
          for (int shift = 0; shift <= 16; shift += 8) {
            colourError += Math.abs((actual >> shift & 0xFF) - (expected >> shift & 0xFF));
          }
        } else if (alpha <= 5) {
          wrongAlpha += (actual >>> 24) == 0 ? 0 : 1;
        }
      }
    }
    long pixels = (long) png.getWidth() * png.getHeight();
    assertThat(wrongAlpha)
        .as("pixels whose transparency differs from the PNG's")
        .isLessThan(pixels / 200);
    assertThat(opaque).as("opaque pixels").isPositive();
    assertThat((double) colourError / (3 * opaque))
        .as("mean colour error of the opaque pixels against the PNG")
        .isLessThan(10);
  }

  /** A 16-bit RGBA PNG: a colour gradient, its left third fading from clear to opaque. */
  private static byte[] sixteenBitRgbaPng(int width, int height) throws IOException {
    ColorModel model =
        new ComponentColorModel(
            ColorSpace.getInstance(ColorSpace.CS_sRGB),
            true,
            false,
            Transparency.TRANSLUCENT,
            DataBuffer.TYPE_USHORT);
    WritableRaster raster = model.createCompatibleWritableRaster(width, height);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        int alpha = x < width / 3 ? 0xFFFF * x / (width / 3) : 0xFFFF;
        raster.setPixel(x, y, new int[] {0xFFFF * x / width, 0xFFFF * y / height, 0x8000, alpha});
      }
    }
    byte[] png = TestImages.encode(new BufferedImage(model, raster, false, null), "png");
    assertThat(png[24]).as("PNG bit depth").isEqualTo((byte) 16);
    return png;
  }

  private static Operation png() {
    return new Operation(ImageRecipe.ENCODE, Map.of("mediaType", MediaTypes.IMAGE_PNG));
  }

  private Path run(byte[] input, Operation resize, Operation encode, String name)
      throws IOException {
    Path in = dir.resolve(name + ".in");
    Path out = dir.resolve(name + ".out");
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
