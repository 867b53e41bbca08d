package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory budget before decode (issue 14 item 3): a step whose decode and pipeline, estimated
 * from the header, do not fit the function's memory is refused as {@code input-too-large} at once;
 * a crop decodes only its region, so it fits where the whole image would not.
 */
class MemoryBudgetTest {
  /** A 2048 MB function as Lambda and the local cloud run it: 85% of it is heap. */
  private static final MemoryBudget LAMBDA_2048 = MemoryBudget.of(2048, (2048L << 20) * 85 / 100);

  @TempDir Path dir;

  @Test
  void a100MegapixelSixteenBitPngResizedTo9999WideIsRefusedBeforeAnyDecode() throws IOException {
    Path png = HugePng.write(dir.resolve("huge.png"), 10_000, 10_000);
    assertThat(Files.size(png)).isLessThan(1 << 20);
    ImageTransformer transformer = new ImageTransformer(100_000_000, LAMBDA_2048);

    long start = System.nanoTime();
    assertThatThrownBy(
            () ->
                transformer.transform(
                    TestImages.step(widthOnly(9_999), TestImages.encode(MediaTypes.IMAGE_PNG, 85)),
                    png,
                    dir.resolve("out.png")))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> assertThat(e.type()).isEqualTo(StepErrorTypes.INPUT_TOO_LARGE))
        .hasMessageContaining("the 10000x10000 PNG (8 bytes per pixel)")
        .hasMessageContaining("9999x9999")
        .hasMessageContaining("memory size 2048 MB");
    long millis = (System.nanoTime() - start) / 1_000_000;

    // Decoding would inflate 800 MB and hold more than the heap: refused from the header alone.
    assertThat(millis).as("ms until refused").isLessThan(3_000);
    assertThat(dir.resolve("out.png")).doesNotExist();
  }

  @Test
  void theSamePngMadeIntoAThumbnailFitsTheBudget() throws IOException {
    Path png = HugePng.write(dir.resolve("huge.png"), 10_000, 10_000);
    ImageSource source = ImageSources.open(png, 100_000_000, 1);
    try {
      // subsampled by 13 while decoding: 770 x 770 pixels of 8 bytes, far under the budget
      var size = source.decodedSize(256, 256);
      MemoryEstimate need = source.decodeCost(size.width, size.height);
      LAMBDA_2048.check(need, "a thumbnail");
      assertThat(size.width).isEqualTo(770);
      assertThat(need.heapBytes()).isEqualTo(770L * 770 * 8);
    } finally {
      source.close();
    }
  }

  @Test
  void aCropOfAHugePngDecodesOnlyItsRegion() throws IOException {
    Path png = HugePng.write(dir.resolve("huge.png"), 10_000, 4_000);
    // 512 MB: the whole image (320 MB decoded, then copies) would not fit, its 300 x 200 corner
    // does
    ImageTransformer transformer =
        new ImageTransformer(100_000_000, MemoryBudget.of(512, (512L << 20) * 85 / 100));
    Path out = dir.resolve("corner.png");

    transformer.transform(
        TestImages.step(
            crop(Map.of("left", 0, "top", 0, "width", 300, "height", 200)),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85)),
        png,
        out);

    BufferedImage corner = ImageIO.read(out.toFile());
    assertThat(corner.getWidth()).isEqualTo(300);
    assertThat(corner.getHeight()).isEqualTo(200);
    assertThat(corner.getRGB(150, 100) >>> 24).as("alpha").isZero();

    assertThatThrownBy(
            () ->
                transformer.transform(
                    TestImages.step(
                        crop(Map.of("left", 0, "top", 0, "width", 10_000, "height", 4_000)),
                        TestImages.encode(MediaTypes.IMAGE_PNG, 85)),
                    png,
                    out))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> assertThat(e.type()).isEqualTo(StepErrorTypes.INPUT_TOO_LARGE));
  }

  @Test
  void aJpegCropIsCutOutOfTheStreamedRowsByLibvipsNotDecodedWhole() throws IOException {
    // 4800 x 3600 (17 MP) in four quadrants, stored rotated: EXIF orientation 6 shows it 3600 x
    // 4800
    BufferedImage stored = TestImages.quadrants(4800, 3600);
    Path jpeg = dir.resolve("big.jpg");
    Files.write(jpeg, TestImages.jpegWithOrientation(stored, 6));
    // 300 MB in all: decoding 17 MP whole (copies in libvips, Java and the pipeline) would not fit
    ImageTransformer transformer =
        new ImageTransformer(100_000_000, new MemoryBudget(Long.MAX_VALUE, 300L << 20, 300));
    Path out = dir.resolve("region.png");

    // upright, the stored top-left quadrant is the top-right one: a region inside it
    transformer.transform(
        TestImages.step(
            crop(Map.of("left", 2000, "top", 200, "width", 1000, "height", 1500)),
            TestImages.resize(500, 750),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85)),
        jpeg,
        out);

    BufferedImage region = ImageIO.read(out.toFile());
    assertThat(region.getWidth()).isEqualTo(500);
    assertThat(region.getHeight()).isEqualTo(750);
    assertThat(new Color(region.getRGB(250, 375))).satisfies(c -> near(c, TestImages.TOP_LEFT));

    assertThatThrownBy(
            () ->
                transformer.transform(
                    TestImages.step(
                        crop(Map.of("left", 0, "top", 0, "width", 3600, "height", 4800)),
                        TestImages.encode(MediaTypes.IMAGE_PNG, 85)),
                    jpeg,
                    out))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            e -> assertThat(e.type()).isEqualTo(StepErrorTypes.INPUT_TOO_LARGE))
        .hasMessageContaining("the 3600x4800 JPEG (3 bytes per pixel)");
  }

  @Test
  void theBudgetComesFromTheMemorySizeLessWhatTheWorkerItselfNeeds() {
    MemoryBudget budget = MemoryBudget.of(2048, 1740L << 20);
    assertThat(budget.heapBytes()).isEqualTo((1740L - 64) << 20);
    assertThat(budget.totalBytes()).isEqualTo((2048L - 256) << 20);

    MemoryBudget unknown = MemoryBudget.of(0, 1L << 30);
    assertThat(unknown.totalBytes()).isEqualTo(Long.MAX_VALUE);

    assertThatThrownBy(() -> budget.check(new MemoryEstimate(100L << 20, 1800L << 20), "this"))
        .hasMessageContaining("this needs about 1.9 GB of memory, more than the 1.8 GB")
        .hasMessageContaining("(memory size 2048 MB)");
    assertThatThrownBy(() -> budget.check(new MemoryEstimate(1700L << 20, 0), "that"))
        .hasMessageContaining("of Java heap");
    budget.check(new MemoryEstimate(1600L << 20, 150L << 20), "fits");
  }

  private static void near(Color actual, Color expected) {
    assertThat(Math.abs(actual.getRed() - expected.getRed())).isLessThan(24);
    assertThat(Math.abs(actual.getGreen() - expected.getGreen())).isLessThan(24);
    assertThat(Math.abs(actual.getBlue() - expected.getBlue())).isLessThan(24);
  }

  private static Operation widthOnly(int width) {
    return new Operation(ImageRecipe.RESIZE, Map.of("width", width, "withoutEnlargement", false));
  }

  private static Operation crop(Map<String, Object> params) {
    return new Operation(ImageRecipe.CROP, params);
  }
}
