package dev.derive.worker.image;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real files from the shared sample corpus (system property {@code derive.samples}, set by the root
 * POM's surefire configuration to {@code ../shared/samples} beside the repository).
 */
class SampleCorpusTest {
  private static final int THUMBNAIL = 256;

  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  @Test
  void exifSamplesComeOutUprightWithTheirLongestSideAt256() throws IOException {
    List<Path> photos = files("exif", ".jpg");
    assertThat(photos).as("EXIF orientation samples in %s", samples().resolve("exif")).isNotEmpty();
    List<BufferedImage> landscapes = new ArrayList<>();
    List<BufferedImage> portraits = new ArrayList<>();

    for (Path photo : photos) {
      String name = photo.getFileName().toString();
      BufferedImage thumbnail = thumbnail(photo);
      assertThat(Math.max(thumbnail.getWidth(), thumbnail.getHeight()))
          .as("longest side of %s", name)
          .isEqualTo(THUMBNAIL);
      if (name.startsWith("Landscape")) {
        assertThat(thumbnail.getWidth())
            .as("%s is landscape", name)
            .isGreaterThan(thumbnail.getHeight());
        landscapes.add(thumbnail);
      } else if (name.startsWith("Portrait")) {
        assertThat(thumbnail.getHeight())
            .as("%s is portrait", name)
            .isGreaterThan(thumbnail.getWidth());
        portraits.add(thumbnail);
      } else {
        fail("unexpected sample " + name);
      }
    }
    // Every variant of a scene shows the same picture once upright (only the digit naming the
    // orientation differs); a mirrored or rotated result differs by 40 or more.
    assertSamePicture(landscapes);
    assertSamePicture(portraits);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jpeg/5dhtsegments.jpg",
        "jpeg/cmm-exception-adobe-rgb.jpg",
        "jpeg/cmyk-sample.jpg",
        "jpeg/pil_sample_cmyk.jpg",
        "jpeg/gradient_ls.jpg",
        "png/basi0g01.png",
        "png/basi3p08.png",
        "png/basn0g16.png",
        "png/basn4a08.png",
        "png/basn6a16.png",
        "png/tbbn3p08.png",
        "other-images/dispose_bgnd.gif",
        "other-images/quick.gif",
        "other-images/rgb24.bmp",
        "other-images/pal8rle.bmp",
        "other-images/hopper_lzw.tif",
        "other-images/multipage.tiff",
        "other-images/g4-multi.tiff",
        "other-images/hopper.webp",
        "other-images/testWebp_Alpha_Lossless.webp"
      })
  void decodesEverySupportedFormat(String sample) throws IOException {
    BufferedImage thumbnail = thumbnail(samples().resolve(sample));

    assertThat(thumbnail.getWidth()).isPositive().isLessThanOrEqualTo(THUMBNAIL);
    assertThat(thumbnail.getHeight()).isPositive().isLessThanOrEqualTo(THUMBNAIL);
  }

  @Test
  void decompressionBombGifIsRefusedFromItsHeaderUnderATighterLimit() {
    // The frame declares 65535 x 1321 pixels (86.6 MP) in a 44-byte file.
    assertFailsWith(
        new ImageTransformer(10_000_000),
        "other-images/decompression_bomb.gif",
        StepErrorTypes.INPUT_TOO_LARGE);
  }

  @Test
  void decompressionBombGifUnderTheDefaultLimitFailsAsCorrupt() {
    assertFailsWith(
        transformer, "other-images/decompression_bomb.gif", StepErrorTypes.CORRUPT_INPUT);
  }

  @ParameterizedTest
  @ValueSource(strings = {"png/truncated_end_chunk.png"})
  void truncatedFilesAreCorruptInput(String sample) {
    assertFailsWith(transformer, sample, StepErrorTypes.CORRUPT_INPUT);
  }

  @ParameterizedTest
  @ValueSource(strings = {"png/xs1n0g01.png", "png/xcrn0g04.png"})
  void pngWithABrokenSignatureIsNotRecognised(String sample) {
    assertFailsWith(transformer, sample, StepErrorTypes.UNSUPPORTED_INPUT);
  }

  @Test
  void twelveBitJpegIsUnsupportedInput() {
    assertFailsWith(transformer, "jpeg/monkey12.jpg", StepErrorTypes.UNSUPPORTED_INPUT);
  }

  private void assertFailsWith(ImageTransformer transformer, String sample, String type) {
    assertThatThrownBy(() -> thumbnail(transformer, samples().resolve(sample)))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(type);
  }

  private BufferedImage thumbnail(Path source) throws IOException {
    return thumbnail(transformer, source);
  }

  private BufferedImage thumbnail(ImageTransformer transformer, Path source) throws IOException {
    Path output = Files.createTempFile(dir, "thumb", ".jpg");
    StepMessage step =
        TestImages.step(
            TestImages.resize(THUMBNAIL, THUMBNAIL), TestImages.encode(MediaTypes.IMAGE_JPEG, 85));
    transformer.transform(step, source, output);
    BufferedImage image = ImageIO.read(output.toFile());
    assertThat(image).as("thumbnail of %s decodes", source).isNotNull();
    return image;
  }

  private static void assertSamePicture(List<BufferedImage> images) {
    for (BufferedImage image : images.subList(1, images.size())) {
      assertThat(meanDifference(images.get(0), image)).isLessThan(20.0);
    }
  }

  /** Mean absolute difference per channel (0..255) of two images of the same size. */
  private static double meanDifference(BufferedImage a, BufferedImage b) {
    assertThat(b.getWidth()).isEqualTo(a.getWidth());
    assertThat(b.getHeight()).isEqualTo(a.getHeight());
    long sum = 0;
    for (int y = 0; y < a.getHeight(); y++) {
      for (int x = 0; x < a.getWidth(); x++) {
        int p = a.getRGB(x, y);
        int q = b.getRGB(x, y);
        for (int shift = 0; shift <= 16; shift += 8) {
          sum += Math.abs(((p >> shift) & 0xFF) - ((q >> shift) & 0xFF));
        }
      }
    }
    return (double) sum / (3L * a.getWidth() * a.getHeight());
  }

  private static List<Path> files(String folder, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(samples().resolve(folder))) {
      return files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }
}
