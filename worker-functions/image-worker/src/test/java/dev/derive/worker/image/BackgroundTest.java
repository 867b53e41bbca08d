package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import java.awt.Color;
import java.awt.Graphics2D;
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

/**
 * background (issue 29 part 2): alpha flattened onto a colour without a resize, measured on the
 * output's pixels.
 */
class BackgroundTest {
  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  /** 90 x 60 PNG: left third clear, middle third blue at alpha 128, right third opaque red. */
  private static byte[] thirds() throws IOException {
    BufferedImage image = new BufferedImage(90, 60, BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = image.createGraphics();
    g.setColor(new Color(0, 0, 255, 128));
    g.fillRect(30, 0, 30, 60);
    g.setColor(Color.RED);
    g.fillRect(60, 0, 30, 60);
    g.dispose();
    return TestImages.encode(image, "png");
  }

  @Test
  void aJpegOfAClearPngTakesTheColourNotWhiteAndKeepsItsSize() throws IOException {
    BufferedImage out = run(MediaTypes.IMAGE_JPEG, TestImages.background("#00ff00"));

    assertThat(out.getWidth()).isEqualTo(90);
    assertThat(out.getHeight()).isEqualTo(60);
    assertNear(out, 15, 30, new Color(0, 255, 0));
    assertNear(out, 45, 30, new Color(0, 127, 128)); // half blue over green
    assertNear(out, 75, 30, Color.RED);
  }

  @Test
  void aPngFlattenedOntoAnOpaqueColourHasNoAlphaLeft() throws IOException {
    BufferedImage out = run(MediaTypes.IMAGE_PNG, TestImages.background("#ffffff"));

    assertThat(out.getColorModel().hasAlpha()).isFalse();
    assertThat(out.getRGB(15, 30) & 0xFFFFFF).isEqualTo(0xFFFFFF);
    assertNear(out, 45, 30, new Color(127, 127, 255));
    assertThat(out.getRGB(75, 30) & 0xFFFFFF).isEqualTo(0xFF0000);
  }

  @Test
  void aTranslucentColourLeavesAClearAreaAsTranslucentAsTheColour() throws IOException {
    BufferedImage out = run(MediaTypes.IMAGE_PNG, TestImages.background("#ff000080"));

    assertThat(Integer.toHexString(out.getRGB(15, 30))).isEqualTo("80ff0000");
    assertThat(out.getRGB(75, 30)).isEqualTo(0xFFFF0000);
  }

  /**
   * A source libvips decodes (lossless WebP) takes the translucent colour in libvips too, with the
   * same pixels as the PNG, which the Java2D backend decodes.
   */
  @Test
  void aTranslucentColourOverALibvipsDecodeGivesThePngsPixels() throws IOException {
    Path webp = Files.createTempFile(dir, "in", ".webp");
    try (dev.derive.worker.libvips.VipsImage pixels =
        VipsPixels.toVips(ImageIO.read(new java.io.ByteArrayInputStream(thirds())))) {
      dev.derive.worker.libvips.Vips.shared().saveWebp(pixels, webp, 100, true, 4);
    }
    BufferedImage fromPng = run(MediaTypes.IMAGE_PNG, TestImages.background("#ff000080"));
    Path out = Files.createTempFile(dir, "out", ".png");
    transformer.transform(
        step(
            TestImages.background("#ff000080"),
            new Operation(ImageRecipe.ENCODE, Map.of("mediaType", MediaTypes.IMAGE_PNG))),
        webp,
        out);
    BufferedImage fromWebp = ImageIO.read(out.toFile());

    for (int x = 5; x < 90; x += 10) {
      assertThat(Integer.toHexString(fromWebp.getRGB(x, 30)))
          .as("pixel %d,30", x)
          .isEqualTo(Integer.toHexString(fromPng.getRGB(x, 30)));
    }
    assertThat(Integer.toHexString(fromWebp.getRGB(15, 30))).isEqualTo("80ff0000");
  }

  @Test
  void withAContainResizeThePaddingIsTheColourAndThePictureFlattened() throws IOException {
    BufferedImage out =
        run(
            MediaTypes.IMAGE_PNG,
            TestImages.resize(90, 90, "contain", true),
            TestImages.background("#ffff00"));

    assertThat(out.getWidth()).isEqualTo(90);
    assertThat(out.getHeight()).isEqualTo(90);
    assertThat(out.getRGB(45, 5) & 0xFFFFFF).as("padding").isEqualTo(0xFFFF00);
    assertThat(out.getRGB(15, 45) & 0xFFFFFF).as("clear third").isEqualTo(0xFFFF00);
    assertThat(out.getRGB(75, 45) & 0xFFFFFF).as("red third").isEqualTo(0xFF0000);
  }

  @Test
  void everyFrameOfAnAnimationTakesATranslucentOne() throws IOException {
    // each 40 x 40 frame: left half clear, right half AnimationTest.FRAMES[i]; blue at alpha 128
    Path in = halfClearAnimation();

    List<BufferedImage> webp =
        AnimationTest.frames(animated(in, MediaTypes.IMAGE_WEBP, "#0000ff80"));
    assertThat(webp).hasSize(AnimationTest.FRAMES.length);
    for (int i = 0; i < webp.size(); i++) {
      int clear = webp.get(i).getRGB(10, 20);
      assertThat(clear >>> 24)
          .as("frame %d's clear half: the colour's alpha", i)
          .isBetween(126, 130);
      assertNear(webp.get(i), 10, 20, Color.BLUE);
      assertThat(webp.get(i).getRGB(30, 20) >>> 24).as("frame %d's picture", i).isEqualTo(255);
      assertNear(webp.get(i), 30, 20, AnimationTest.FRAMES[i]);
    }

    // GIF's alpha is one bit: a colour at least half opaque (alpha 128 and up) comes out opaque
    List<BufferedImage> gif = AnimationTest.frames(animated(in, MediaTypes.IMAGE_GIF, "#0000ff80"));
    assertThat(gif).hasSize(AnimationTest.FRAMES.length);
    for (int i = 0; i < gif.size(); i++) {
      assertThat(gif.get(i).getRGB(10, 20) >>> 24).as("frame %d's clear half", i).isEqualTo(255);
      assertNear(gif.get(i), 10, 20, Color.BLUE);
      assertNear(gif.get(i), 30, 20, AnimationTest.FRAMES[i]);
    }
    // AVIF's sequence has no alpha: the colour, made opaque, under every frame
    Path avif = animated(in, MediaTypes.IMAGE_AVIF, "#0000ff80");
    List<BufferedImage> opaque = AvifSequence.probe(avif).frames(avif);
    assertThat(opaque).hasSize(AnimationTest.FRAMES.length);
    for (int i = 0; i < opaque.size(); i++) {
      AnimationTest.assertNear(new Color(opaque.get(i).getRGB(8, 20)), Color.BLUE, "AVIF " + i);
      AnimationTest.assertNear(
          new Color(opaque.get(i).getRGB(32, 20)), AnimationTest.FRAMES[i], "AVIF frame " + i);
    }

    // and a colour under half opaque (alpha 64) leaves those pixels clear
    List<BufferedImage> faint =
        AnimationTest.frames(animated(in, MediaTypes.IMAGE_GIF, "#0000ff40"));
    for (int i = 0; i < faint.size(); i++) {
      assertThat(faint.get(i).getRGB(10, 20) >>> 24).as("frame %d's clear half", i).isZero();
      assertNear(faint.get(i), 30, 20, AnimationTest.FRAMES[i]);
    }
  }

  /** An animated lossless WebP of 40 x 40 frames: left half clear, right half FRAMES[i]. */
  private Path halfClearAnimation() {
    int frames = AnimationTest.FRAMES.length;
    BufferedImage tall = new BufferedImage(40, 40 * frames, BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = tall.createGraphics();
    for (int i = 0; i < frames; i++) {
      g.setColor(AnimationTest.FRAMES[i]);
      g.fillRect(20, 40 * i, 20, 40);
    }
    g.dispose();
    Path in = dir.resolve("in.webp");
    try (VipsImage pixels = VipsPixels.toVips(tall);
        VipsImage roll = Vips.shared().operation("copy").set("in", pixels).image()) {
      roll.set(AnimationFrames.PAGE_HEIGHT, 40);
      Vips.shared().saveWebp(roll, in, 100, true, 4);
    }
    return in;
  }

  private Path animated(Path in, String mediaType, String background) throws IOException {
    Path out = Files.createTempFile(dir, "out", ".bin");
    transformer.transform(
        step(
            TestImages.background(background),
            new Operation(ImageRecipe.ENCODE, Map.of("mediaType", mediaType, "animated", true))),
        in,
        out);
    return out;
  }

  private BufferedImage run(String mediaType, Operation... before) throws IOException {
    Path in = Files.createTempFile(dir, "in", ".png");
    Path out = Files.createTempFile(dir, "out", ".bin");
    Files.write(in, thirds());
    List<Operation> operations = new ArrayList<>(List.of(before));
    operations.add(new Operation(ImageRecipe.ENCODE, Map.of("mediaType", mediaType)));
    transformer.transform(step(operations.toArray(Operation[]::new)), in, out);
    BufferedImage image = ImageIO.read(out.toFile());
    assertThat(image).as("output decodes").isNotNull();
    return image;
  }

  /** Each band within 3 (JPEG's error on a flat area). */
  private static void assertNear(BufferedImage image, int x, int y, Color expected) {
    Color actual = new Color(image.getRGB(x, y));
    assertThat(Math.abs(actual.getRed() - expected.getRed()))
        .as("red at %d,%d", x, y)
        .isLessThan(4);
    assertThat(Math.abs(actual.getGreen() - expected.getGreen()))
        .as("green at %d,%d", x, y)
        .isLessThan(4);
    assertThat(Math.abs(actual.getBlue() - expected.getBlue()))
        .as("blue at %d,%d", x, y)
        .isLessThan(4);
  }
}
