package dev.derive.worker.image;

import static dev.derive.worker.image.PixelDifference.premultipliedDifference;
import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.StepMessage;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Animated files of the corpus as a still derivative (a JPEG or PNG thumbnail) and the bilevel
 * scan: the first frame as a viewer shows it first, checked against the JDK's own decode of that
 * frame. The animation kept in GIF/WebP output ({@code animated}) is {@link AnimatedCorpusTest}.
 */
class FirstFrameCorpusTest {
  private static final int BOX = 256;

  /** Every animated file of the corpus, with the size of its first frame fitted into 256 x 256. */
  static final List<String> ANIMATED =
      List.of(
          "animated/gifplayer-muybridge.gif",
          "animated/rotating-squares.gif",
          "animated/dispose-previous.gif",
          "animated/apng4android-1.webp",
          "animated/TestImageAnimated.apng");

  /** The scan of the corpus this suite covers (its OCR is a later issue). */
  static final String SCAN = "scans/eurotext.tif";

  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  /**
   * GIF and APNG: the first frame, the same picture as ImageIO's decode of image 0 (a GIF's first
   * frame covers its canvas here; an APNG's default image is its first frame), fitted into the box
   * (small files are never enlarged). Transparency stays transparent in PNG.
   */
  @ParameterizedTest
  @CsvSource({
    "animated/gifplayer-muybridge.gif, 256x162",
    "animated/rotating-squares.gif, 80x80",
    "animated/dispose-previous.gif, 100x100",
    "animated/TestImageAnimated.apng, 256x192"
  })
  void gifAndApngGiveTheirFirstFrame(String sample, String size) throws IOException {
    Path file = samples().resolve(sample);
    BufferedImage thumbnail = thumbnail(file, MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo(size);
    BufferedImage first = firstImage(file);
    BufferedImage reference = scaled(first, thumbnail.getWidth(), thumbnail.getHeight());
    assertThat(premultipliedDifference(thumbnail, reference))
        .as("%s against ImageIO's first frame", sample)
        .isLessThan(6.0);
  }

  /**
   * An animated WebP whose key frames alternate with blended sub-rectangles: the first (key) frame,
   * 300 x 225 into 256 x 192, as TwelveMonkeys' WebP reader decodes image 0.
   */
  @Test
  void animatedWebpGivesItsFirstKeyFrame() throws IOException {
    Path file = samples().resolve("animated/apng4android-1.webp");
    BufferedImage thumbnail = thumbnail(file, MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo("256x192");
    BufferedImage reference = scaled(firstImage(file), 256, 192);
    assertThat(premultipliedDifference(thumbnail, reference)).isLessThan(6.0);
  }

  /**
   * A 1024 x 800 bilevel (1-bit, WhiteIsZero) scan: 256 x 200, black print on white as it was
   * scanned (an inverted WhiteIsZero reading would be mostly black), the same picture as ImageIO's
   * decode scaled down.
   */
  @Test
  void bilevelScanComesOutBlackOnWhite() throws IOException {
    Path file = samples().resolve(SCAN);
    BufferedImage thumbnail = thumbnail(file, MediaTypes.IMAGE_PNG);

    assertThat(size(thumbnail)).isEqualTo("256x200");
    double meanLuma = meanGrey(thumbnail);
    assertThat(meanLuma).as("mostly white paper").isGreaterThan(200);
    assertThat(darkFraction(thumbnail)).as("print").isBetween(0.01, 0.30);
    BufferedImage reference = scaled(ImageIO.read(file.toFile()), 256, 200);
    assertThat(premultipliedDifference(thumbnail, reference)).isLessThan(12.0);
  }

  private BufferedImage thumbnail(Path source, String mediaType) throws IOException {
    Path output = Files.createTempFile(dir, "thumb", ".out");
    StepMessage step =
        TestImages.step(TestImages.resize(BOX, BOX), TestImages.encode(mediaType, 85));
    transformer.transform(step, source, output);
    BufferedImage image = ImageIO.read(output.toFile());
    assertThat(image).as("thumbnail of %s decodes", source).isNotNull();
    return image;
  }

  /** Image 0 of {@code file} as the JDK's (and TwelveMonkeys') readers decode it. */
  private static BufferedImage firstImage(Path file) throws IOException {
    try (ImageInputStream in = ImageIO.createImageInputStream(file.toFile())) {
      ImageReader reader = ImageIO.getImageReaders(in).next();
      try {
        reader.setInput(in);
        return reader.read(0);
      } finally {
        reader.dispose();
      }
    }
  }

  /** {@code image} scaled to {@code width} x {@code height} with bicubic interpolation, in ARGB. */
  private static BufferedImage scaled(BufferedImage image, int width, int height) {
    BufferedImage argb =
        new BufferedImage(image.getWidth(), image.getHeight(), BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = argb.createGraphics();
    g.drawImage(image, 0, 0, null);
    g.dispose();
    BufferedImage current = argb;
    // halve first, as a box filter, so a large reduction does not alias
    while (current.getWidth() / 2 >= width && current.getHeight() / 2 >= height) {
      current = draw(current, current.getWidth() / 2, current.getHeight() / 2);
    }
    return draw(current, width, height);
  }

  private static BufferedImage draw(BufferedImage image, int width, int height) {
    BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = out.createGraphics();
    g.setRenderingHint(
        RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
    g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
    g.drawImage(image, 0, 0, width, height, null);
    g.dispose();
    return out;
  }

  private static String size(BufferedImage image) {
    return image.getWidth() + "x" + image.getHeight();
  }

  private static double meanGrey(BufferedImage image) {
    double sum = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        sum += (image.getRGB(x, y) >> 8) & 0xFF;
      }
    }
    return sum / (image.getWidth() * image.getHeight());
  }

  private static double darkFraction(BufferedImage image) {
    int dark = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if (((image.getRGB(x, y) >> 8) & 0xFF) < 128) {
          dark++;
        }
      }
    }
    return (double) dark / (image.getWidth() * image.getHeight());
  }
}
