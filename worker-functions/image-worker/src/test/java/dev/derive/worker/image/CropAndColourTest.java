package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import dev.derive.worker.runtime.SampleCorpus;
import java.awt.Color;
import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.WritableRaster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Crop (box and gravity), progressive JPEG, conversion to sRGB and metadata stripping. */
class CropAndColourTest {
  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  @TempDir Path dir;

  @Test
  void cropBoxCutsThatRegionOfTheImage() throws IOException {
    BufferedImage out =
        run(
            TestImages.encode(TestImages.quadrants(200, 100), "png"),
            crop(Map.of("left", 100, "top", 0, "width", 100, "height", 50)),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));

    assertThat(out.getWidth()).isEqualTo(100);
    assertThat(out.getHeight()).isEqualTo(50);
    assertNear(out, 1, 1, TestImages.TOP_RIGHT);
    assertNear(out, 98, 48, TestImages.TOP_RIGHT);
  }

  @Test
  void cropHappensBeforeResize() throws IOException {
    BufferedImage out =
        run(
            TestImages.encode(TestImages.quadrants(200, 100), "png"),
            crop(Map.of("left", 0, "top", 50, "width", 100, "height", 50)),
            TestImages.resize(50, 50),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));

    assertThat(out.getWidth()).isEqualTo(50);
    assertThat(out.getHeight()).isEqualTo(25);
    assertNear(out, 25, 12, TestImages.BOTTOM_LEFT);
  }

  @ParameterizedTest
  @CsvSource({
    "centre, TOP_LEFT, BOTTOM_RIGHT",
    "north, TOP_LEFT, TOP_RIGHT",
    "northeast, TOP_RIGHT, TOP_RIGHT",
    "east, TOP_RIGHT, BOTTOM_RIGHT",
    "southeast, BOTTOM_RIGHT, BOTTOM_RIGHT",
    "south, BOTTOM_LEFT, BOTTOM_RIGHT",
    "southwest, BOTTOM_LEFT, BOTTOM_LEFT",
    "west, TOP_LEFT, BOTTOM_LEFT",
    "northwest, TOP_LEFT, TOP_LEFT"
  })
  void cropGravityPlacesTheRegion(String gravity, String firstCorner, String lastCorner)
      throws IOException {
    BufferedImage out =
        run(
            TestImages.encode(TestImages.quadrants(200, 100), "png"),
            crop(Map.of("width", 60, "height", 30, "gravity", gravity)),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));

    assertThat(out.getWidth()).isEqualTo(60);
    assertThat(out.getHeight()).isEqualTo(30);
    assertNear(out, 1, 1, quadrant(firstCorner));
    assertNear(out, 58, 28, quadrant(lastCorner));
  }

  @Test
  void cropIsOnTheUprightImage() throws IOException {
    // Orientation 6: the stored image is turned clockwise to be shown, its bottom-left quadrant
    // comes to the top left of the upright 100x200 image.
    BufferedImage out =
        run(
            TestImages.jpegWithOrientation(TestImages.quadrants(200, 100), 6),
            crop(Map.of("width", 50, "height", 100, "gravity", "northwest")),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));

    assertThat(out.getWidth()).isEqualTo(50);
    assertThat(out.getHeight()).isEqualTo(100);
    assertNear(out, 25, 50, TestImages.BOTTOM_LEFT);
  }

  /**
   * A crop of a turned JPEG (libvips decodes its region and shrinks it on the way) is the upright
   * region, resized: orientation 6 brings the stored bottom-left quadrant to the upright top left
   * and the top-left quadrant to the upright top right.
   */
  @Test
  void aCropOfATurnedJpegIsItsUprightRegionResized() throws IOException {
    BufferedImage out =
        run(
            TestImages.jpegWithOrientation(TestImages.quadrants(800, 400), 6),
            crop(Map.of("width", 400, "height", 400, "gravity", "north")),
            TestImages.resize(100, 100),
            TestImages.encode(MediaTypes.IMAGE_PNG, 85));

    assertThat(out.getWidth()).isEqualTo(100);
    assertThat(out.getHeight()).isEqualTo(100);
    assertNear(out, 25, 50, TestImages.BOTTOM_LEFT);
    assertNear(out, 75, 50, TestImages.TOP_LEFT);
  }

  @Test
  void cropOutsideTheImageIsAnInvalidStep() throws IOException {
    Path input =
        Files.write(
            dir.resolve("in.png"), TestImages.encode(TestImages.quadrants(200, 100), "png"));
    Path output = dir.resolve("out.png");

    assertThatThrownBy(
            () ->
                transformer.transform(
                    TestImages.step(
                        crop(Map.of("left", 150, "top", 0, "width", 100, "height", 50))),
                    input,
                    output))
        .isInstanceOf(PermanentStepFailure.class)
        .hasMessageContaining("does not fit inside the upright image of 200x100")
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.INVALID_STEP);
    assertThatThrownBy(
            () ->
                transformer.transform(
                    TestImages.step(crop(Map.of("width", 300, "height", 50, "gravity", "east"))),
                    input,
                    output))
        .isInstanceOf(PermanentStepFailure.class)
        .extracting(e -> ((PermanentStepFailure) e).type())
        .isEqualTo(StepErrorTypes.INVALID_STEP);
  }

  @Test
  void incompleteOrUnknownCropParametersAreAnInvalidStep() {
    for (Map<String, Object> params :
        List.<Map<String, Object>>of(
            Map.of("width", 10),
            Map.of("width", 10, "height", 10, "gravity", "middle"),
            Map.of("width", 10, "height", 10, "left", 0))) {
      assertThatThrownBy(() -> ImageRecipe.of(TestImages.declared(TestImages.step(crop(params)))))
          .as("crop %s", params)
          .isInstanceOf(PermanentStepFailure.class)
          .extracting(e -> ((PermanentStepFailure) e).type())
          .isEqualTo(StepErrorTypes.INVALID_STEP);
    }
  }

  @Test
  void progressiveJpegHasAnSof2FrameAndBaselineAnSof0() throws IOException {
    byte[] input = TestImages.encode(TestImages.quadrants(120, 80), "png");

    List<Integer> progressive =
        markers(
            runBytes(
                input,
                new Operation(
                    ImageRecipe.ENCODE,
                    Map.of(
                        "mediaType", MediaTypes.IMAGE_JPEG, "quality", 85, "progressive", true))));
    List<Integer> baseline = markers(runBytes(input, TestImages.encode(MediaTypes.IMAGE_JPEG, 85)));

    assertThat(progressive).contains(0xC2).doesNotContain(0xC0);
    assertThat(baseline).contains(0xC0).doesNotContain(0xC2);
  }

  @Test
  void outputCarriesNoExifOrIccSegment() throws IOException {
    byte[] input = TestImages.jpegWithOrientation(TestImages.quadrants(120, 80), 3);
    assertThat(markers(input)).as("the input has EXIF").contains(0xE1);

    List<Integer> output =
        markers(
            runBytes(
                input, TestImages.resize(60, 60), TestImages.encode(MediaTypes.IMAGE_JPEG, 85)));

    assertThat(output).doesNotContain(0xE1, 0xE2);
  }

  @Test
  void nonSrgbPixelsAreConvertedToSrgb() {
    BufferedImage linear = linearRgb(8, 8, 51, 102, 204);

    BufferedImage srgb = ColourManagement.toSrgb(linear);

    assertThat(srgb.getColorModel().getColorSpace().isCS_sRGB()).isTrue();
    // IEC 61966-2-1 encoding of linear 0.2, 0.4, 0.8: 124, 170, 231.
    assertNear(srgb, 4, 4, new Color(124, 170, 231), 8);
  }

  @Test
  void imageTaggedWithANonSrgbProfileIsWrittenInSrgb() throws IOException {
    // A TIFF carrying the linear-RGB ICC profile: its stored values 51, 102, 204 mean sRGB 124,
    // 170, 231; a worker that ignored the profile would write 51, 102, 204.
    byte[] tiff = TestImages.encode(linearRgb(64, 48, 51, 102, 204), "tiff");

    BufferedImage out = run(tiff, TestImages.encode(MediaTypes.IMAGE_PNG, 85));

    assertThat(out.getColorModel().getColorSpace().isCS_sRGB()).isTrue();
    assertNear(out, 32, 24, new Color(124, 170, 231), 8);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "jpeg/cmm-exception-adobe-rgb.jpg",
        "jpeg/cmyk-sample.jpg",
        "jpeg/pil_sample_cmyk.jpg"
      })
  void adobeRgbAndCmykSamplesGiveASaneSrgbImage(String sample) throws IOException {
    Path output = dir.resolve("sample.png");
    transformer.transform(
        TestImages.step(TestImages.resize(128, 128), TestImages.encode(MediaTypes.IMAGE_PNG, 85)),
        SampleCorpus.samples().resolve(sample),
        output);
    BufferedImage out = ImageIO.read(output.toFile());

    assertThat(out.getColorModel().getColorSpace().isCS_sRGB()).isTrue();
    double[] mean = meanRgb(out);
    assertThat(mean[0] + mean[1] + mean[2])
        .as(
            "%s: mean colour %s is neither black nor white",
            sample, List.of(mean[0], mean[1], mean[2]))
        .isBetween(3 * 5.0, 3 * 250.0);
    if (sample.equals("jpeg/pil_sample_cmyk.jpg")) {
      // Pillow's test of this file: its top-left pixel is C=0, M>0.8, Y>0.8, K=0, i.e. red.
      Color corner = new Color(out.getRGB(0, 0));
      assertThat(corner.getRed()).as("red of %s", corner).isGreaterThan(150);
      assertThat(corner.getGreen()).as("green of %s", corner).isLessThan(90);
      assertThat(corner.getBlue()).as("blue of %s", corner).isLessThan(90);
    }
  }

  private static BufferedImage linearRgb(int width, int height, int r, int g, int b) {
    ComponentColorModel model =
        new ComponentColorModel(
            ColorSpace.getInstance(ColorSpace.CS_LINEAR_RGB),
            false,
            false,
            Transparency.OPAQUE,
            DataBuffer.TYPE_BYTE);
    WritableRaster raster = model.createCompatibleWritableRaster(width, height);
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        raster.setPixel(x, y, new int[] {r, g, b});
      }
    }
    return new BufferedImage(model, raster, false, null);
  }

  private BufferedImage run(byte[] input, Operation... operations) throws IOException {
    BufferedImage decoded =
        ImageIO.read(new java.io.ByteArrayInputStream(runBytes(input, operations)));
    assertThat(decoded).as("output decodes").isNotNull();
    return decoded;
  }

  private byte[] runBytes(byte[] input, Operation... operations) throws IOException {
    Path in = Files.write(Files.createTempFile(dir, "in", ".img"), input);
    Path out = Files.createTempFile(dir, "out", ".img");
    transformer.transform(TestImages.step(operations), in, out);
    return Files.readAllBytes(out);
  }

  /** The marker codes (second byte) of a JPEG's segments up to the start of scan. */
  private static List<Integer> markers(byte[] jpeg) {
    assertThat(jpeg[0] & 0xFF).isEqualTo(0xFF);
    assertThat(jpeg[1] & 0xFF).as("SOI").isEqualTo(0xD8);
    List<Integer> markers = new ArrayList<>();
    int at = 2;
    while (at + 4 <= jpeg.length) {
      assertThat(jpeg[at] & 0xFF).as("marker at %d", at).isEqualTo(0xFF);
      int marker = jpeg[at + 1] & 0xFF;
      markers.add(marker);
      if (marker == 0xDA) {
        break;
      }
      int length = ((jpeg[at + 2] & 0xFF) << 8) | (jpeg[at + 3] & 0xFF);
      at += 2 + length;
    }
    return markers;
  }

  private static double[] meanRgb(BufferedImage image) {
    double[] sum = new double[3];
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int rgb = image.getRGB(x, y);
        sum[0] += (rgb >> 16) & 0xFF;
        sum[1] += (rgb >> 8) & 0xFF;
        sum[2] += rgb & 0xFF;
      }
    }
    double n = (double) image.getWidth() * image.getHeight();
    return new double[] {sum[0] / n, sum[1] / n, sum[2] / n};
  }

  private static Operation crop(Map<String, Object> params) {
    return new Operation(ImageRecipe.CROP, params);
  }

  private static Color quadrant(String name) {
    return switch (name) {
      case "TOP_LEFT" -> TestImages.TOP_LEFT;
      case "TOP_RIGHT" -> TestImages.TOP_RIGHT;
      case "BOTTOM_LEFT" -> TestImages.BOTTOM_LEFT;
      case "BOTTOM_RIGHT" -> TestImages.BOTTOM_RIGHT;
      default -> throw new IllegalArgumentException(name);
    };
  }

  private static void assertNear(BufferedImage image, int x, int y, Color expected) {
    assertNear(image, x, y, expected, 60);
  }

  private static void assertNear(BufferedImage image, int x, int y, Color expected, int tolerance) {
    Color actual = new Color(image.getRGB(x, y));
    int distance =
        Math.abs(actual.getRed() - expected.getRed())
            + Math.abs(actual.getGreen() - expected.getGreen())
            + Math.abs(actual.getBlue() - expected.getBlue());
    assertThat(distance)
        .as("colour at (%d,%d): %s, expected %s", x, y, actual, expected)
        .isLessThan(tolerance);
  }
}
