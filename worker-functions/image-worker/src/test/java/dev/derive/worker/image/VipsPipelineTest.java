package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.encode;
import static dev.derive.worker.image.TestImages.resize;
import static dev.derive.worker.image.TestImages.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stages over one libvips image ({@link VipsPipeline}), looked at in their output files. */
class VipsPipelineTest {
  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  @Test
  void decodesALibvipsSourceItselfAndLeavesAPngToTheJava2dBackend() throws IOException {
    Path jpeg = write(TestImages.encode(TestImages.quadrants(400, 200), "jpg"));
    Path png = write(TestImages.encode(TestImages.quadrants(400, 200), "png"));

    try (ImageSource source = ImageSources.open(jpeg, 100_000_000, 1)) {
      assertThat(VipsPipeline.accepts(source)).as("a resize, a crop or a trim alike").isTrue();
    }
    try (ImageSource source = ImageSources.open(png, 100_000_000, 1)) {
      assertThat(VipsPipeline.accepts(source)).as("ImageIO decodes PNG").isFalse();
    }
  }

  /**
   * The JPEG saver keeps the JDK writer's quality meaning: the same quantisation tables (IJG's,
   * scaled for {@code quality}) and 4:2:0 chroma, and no metadata segment (EXIF, ICC).
   */
  @Test
  void jpegHasTheJdkWritersTablesAndSubsamplingAndNoMetadata() throws IOException {
    BufferedImage picture = TestImages.quadrants(1200, 800);
    Path out = transform(TestImages.encode(picture, "jpg"), step(resize(300, 300), jpeg(70)));
    Path jdk = dir.resolve("jdk.jpg");
    ImageEncoder.write(picture, MediaTypes.IMAGE_JPEG, 70, jdk);

    List<byte[]> ours = segments(Files.readAllBytes(out));
    List<byte[]> theirs = segments(Files.readAllBytes(jdk));
    assertThat(tables(ours, 0xDB)).isEqualTo(tables(theirs, 0xDB));
    byte[] frame = tables(ours, 0xC0);
    assertThat(frame[7] & 0xFF).as("Y sampling factors 2x2: 4:2:0").isEqualTo(0x22);
    assertThat(ours).noneMatch(s -> (s[1] & 0xFF) == 0xE1 || (s[1] & 0xFF) == 0xE2);
    BufferedImage result = ImageIO.read(out.toFile());
    assertThat(result.getWidth()).isEqualTo(300);
    assertThat(result.getHeight()).isEqualTo(200);
    assertNear(result.getRGB(40, 40), TestImages.TOP_LEFT.getRGB(), 12);
    assertNear(result.getRGB(260, 160), TestImages.BOTTOM_RIGHT.getRGB(), 12);
  }

  @Test
  void containPadsWithTransparencyInPngAndWithWhiteInJpeg() throws IOException {
    byte[] wide = TestImages.encode(TestImages.quadrants(400, 200), "jpg");
    Operation contain = TestImages.resize(200, 200, "contain", false);

    BufferedImage png =
        ImageIO.read(transform(wide, step(contain, encode(MediaTypes.IMAGE_PNG, 85))).toFile());
    BufferedImage jpg = ImageIO.read(transform(wide, step(contain, jpeg(90))).toFile());

    assertThat(png.getWidth()).isEqualTo(200);
    assertThat(png.getHeight()).isEqualTo(200);
    assertThat(png.getRGB(100, 10) >>> 24).as("padding above is transparent").isZero();
    assertThat(png.getRGB(100, 190) >>> 24).as("padding below is transparent").isZero();
    assertNear(png.getRGB(20, 60), TestImages.TOP_LEFT.getRGB(), 12);
    assertNear(jpg.getRGB(100, 10), Color.WHITE.getRGB(), 6);
    assertNear(jpg.getRGB(180, 140), TestImages.BOTTOM_RIGHT.getRGB(), 12);
  }

  @Test
  void coverKeepsTheSideItsGravitySays() throws IOException {
    byte[] wide = TestImages.encode(TestImages.quadrants(400, 200), "jpg");

    BufferedImage east = ImageIO.read(transform(wide, step(cover("east"), jpeg(90))).toFile());
    BufferedImage west = ImageIO.read(transform(wide, step(cover("west"), jpeg(90))).toFile());

    assertThat(east.getWidth()).isEqualTo(100);
    assertThat(east.getHeight()).isEqualTo(100);
    assertNear(east.getRGB(50, 20), TestImages.TOP_RIGHT.getRGB(), 12);
    assertNear(west.getRGB(50, 80), TestImages.BOTTOM_LEFT.getRGB(), 12);
  }

  /**
   * A smart crop, a turn, a flip and a blur read the streamed decode out of order: each gets a copy
   * in memory. The quadrants turned clockwise and mirrored top to bottom put yellow top left.
   */
  @Test
  void smartCropTurnFlipBlurAndPadRunOnTheStreamedDecode() throws IOException {
    byte[] wide = TestImages.encode(TestImages.quadrants(400, 200), "jpg");

    BufferedImage smart = ImageIO.read(transform(wide, step(cover("smart"), jpeg(90))).toFile());
    BufferedImage shaped =
        ImageIO.read(
            transform(
                    wide,
                    step(
                        new Operation(ImageRecipe.ROTATE, Map.of("angle", 90)),
                        resize(200, 200),
                        new Operation(ImageRecipe.FLIP, Map.of()),
                        new Operation(ImageRecipe.BLUR, Map.of("blur", 1)),
                        new Operation(
                            ImageRecipe.PAD,
                            Map.of("padTop", 10, "padRight", 10, "padBottom", 10, "padLeft", 10)),
                        encode(MediaTypes.IMAGE_PNG, 85)))
                .toFile());

    assertThat(smart.getWidth()).isEqualTo(100);
    assertThat(smart.getHeight()).isEqualTo(100);
    assertThat(shaped.getWidth()).isEqualTo(120);
    assertThat(shaped.getHeight()).isEqualTo(220);
    assertThat(shaped.getRGB(3, 3) >>> 24).as("the border is transparent").isZero();
    assertNear(shaped.getRGB(30, 30), TestImages.BOTTOM_RIGHT.getRGB(), 12);
    assertNear(shaped.getRGB(90, 30), TestImages.TOP_RIGHT.getRGB(), 12);
    assertNear(shaped.getRGB(30, 190), TestImages.BOTTOM_LEFT.getRGB(), 12);
    assertNear(shaped.getRGB(90, 190), TestImages.TOP_LEFT.getRGB(), 12);
  }

  /**
   * Each of the red, green and blue of {@code argb} within {@code tolerance} of {@code expected}.
   */
  private static void assertNear(int argb, int expected, int tolerance) {
    for (int shift = 0; shift <= 16; shift += 8) {
      assertThat((argb >> shift) & 0xFF)
          .as("channel at bit %d of %08x against %08x", shift, argb, expected)
          .isCloseTo((expected >> shift) & 0xFF, org.assertj.core.data.Offset.offset(tolerance));
    }
  }

  private static Operation cover(String gravity) {
    return new Operation(
        ImageRecipe.RESIZE,
        Map.of(
            "width",
            100,
            "height",
            100,
            "fit",
            "cover",
            "withoutEnlargement",
            false,
            "gravity",
            gravity));
  }

  private static Operation jpeg(int quality) {
    return encode(MediaTypes.IMAGE_JPEG, quality);
  }

  /** The marker segments of a JPEG up to its first scan: each {@code FF}, code, then its body. */
  private static List<byte[]> segments(byte[] jpeg) {
    List<byte[]> segments = new ArrayList<>();
    int at = 2;
    while (at + 4 <= jpeg.length && (jpeg[at + 1] & 0xFF) != 0xDA) {
      int length = (jpeg[at + 2] & 0xFF) << 8 | jpeg[at + 3] & 0xFF;
      ByteArrayOutputStream segment = new ByteArrayOutputStream();
      segment.write(jpeg, at, 2 + length);
      segments.add(segment.toByteArray());
      at += 2 + length;
    }
    return segments;
  }

  /** The bodies of every segment with marker {@code code}, one after another. */
  private static byte[] tables(List<byte[]> segments, int code) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] segment : segments) {
      if ((segment[1] & 0xFF) == code) {
        all.write(segment, 4, segment.length - 4);
      }
    }
    return all.toByteArray();
  }

  private Path write(byte[] bytes) throws IOException {
    Path in = Files.createTempFile(dir, "in", ".bin");
    Files.write(in, bytes);
    return in;
  }

  private Path transform(byte[] input, dev.derive.protocol.message.StepMessage step)
      throws IOException {
    Path in = write(input);
    Path out = Files.createTempFile(dir, "out", ".bin");
    transformer.transform(step, in, out);
    return out;
  }
}
