package dev.derive.worker.image;

import static dev.derive.worker.image.AnimationTest.FRAMES;
import static dev.derive.worker.image.AnimationTest.assertNear;
import static dev.derive.worker.image.AnimationTest.frames;
import static dev.derive.worker.image.AnimationTest.gifDelays;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image operations on every frame of an animation (issue 29 parts 2 and 5), read back by
 * libvips over all pages: the frames of {@link AnimationTest#gif} (flat colours, a white square at
 * the top left, delays 10..40 cs) cropped, turned, blurred, greyed, bordered and watermarked, each
 * frame still its own colour, in order, with its delay.
 */
class AnimationOperationsTest {
  private static final Color MARK = new Color(255, 0, 255);

  @TempDir Path dir;

  @Test
  void aCoverCropTurnAndWatermarkReachEveryFrameInOrderWithItsDelay() throws IOException {
    // 200 x 100 frames covered into 60 x 100 shown after a quarter turn: 100 x 60 upright, the
    // centre cut (the white square at the top left is cut away), then turned to 60 x 100
    Path out =
        write(
            MediaTypes.IMAGE_GIF,
            new Watermark(mark(), "southeast", 2, 100, 0),
            new Operation(ImageRecipe.ROTATE, Map.of("angle", 90)),
            TestImages.resize(60, 100, "cover", false));

    List<BufferedImage> frames = frames(out);
    assertThat(frames).hasSize(FRAMES.length);
    for (int i = 0; i < FRAMES.length; i++) {
      BufferedImage frame = frames.get(i);
      assertThat(frame.getWidth()).isEqualTo(60);
      assertThat(frame.getHeight()).isEqualTo(100);
      assertNear(new Color(frame.getRGB(4, 4)), FRAMES[i], "frame " + i + " top left");
      assertNear(new Color(frame.getRGB(30, 50)), FRAMES[i], "frame " + i + " centre");
      // the 10 x 5 mark sits 2 px in from the bottom right corner: x 48..57, y 93..97
      assertNear(new Color(frame.getRGB(52, 95)), MARK, "frame " + i + "'s mark");
      assertNear(new Color(frame.getRGB(52, 90)), FRAMES[i], "frame " + i + " above its mark");
    }
    assertThat(gifDelays(out)).containsExactly(10, 20, 30, 40);
  }

  @Test
  void aFixedCropFlipGreyscaleAndBorderReachEveryWebpFrame() throws IOException {
    // the 40 x 40 region at the top left keeps the white square (0..19), flipped to the bottom
    Path out =
        write(
            MediaTypes.IMAGE_WEBP,
            null,
            new Operation(ImageRecipe.CROP, Map.of("left", 0, "top", 0, "width", 40, "height", 40)),
            TestImages.background("#000000"),
            new Operation(ImageRecipe.FLIP, Map.of()),
            new Operation(ImageRecipe.GREYSCALE, Map.of()),
            new Operation(
                ImageRecipe.PAD, Map.of("padTop", 5, "padRight", 5, "padBottom", 5, "padLeft", 5)));

    List<BufferedImage> frames = frames(out);
    assertThat(frames).hasSize(FRAMES.length);
    for (int i = 0; i < FRAMES.length; i++) {
      BufferedImage frame = frames.get(i);
      assertThat(frame.getWidth()).isEqualTo(50);
      assertThat(frame.getHeight()).isEqualTo(50);
      Color body = new Color(frame.getRGB(30, 10));
      assertThat(Math.abs(body.getRed() - body.getBlue())).as("frame %d is grey", i).isLessThan(4);
      int luma = (int) Math.round(luma(FRAMES[i]));
      assertThat(body.getRed()).as("frame %d's grey", i).isBetween(luma - 6, luma + 6);
      assertNear(new Color(frame.getRGB(10, 40)), Color.WHITE, "frame " + i + "'s flipped square");
      assertNear(new Color(frame.getRGB(2, 2)), Color.BLACK, "frame " + i + "'s border");
    }
  }

  @Test
  void aSmartCropIsFoundOnTheFirstFrameAndCutAtTheSamePlaceFromEvery() throws IOException {
    // frame 0 has a red disc on the right; frame 1 has it on the left
    Path in = dir.resolve("moving.gif");
    Files.write(in, AnimationTest.gif(List.of(spot(150), spot(50)), new int[] {10, 10}));
    Path out = dir.resolve("out.gif");
    List<Operation> operations =
        List.of(
            new Operation(
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
                    "smart")),
            new Operation(
                ImageRecipe.ENCODE, Map.of("mediaType", MediaTypes.IMAGE_GIF, "animated", true)));
    ImageRecipe recipe = recipe(operations);
    Animation.write(recipe, Animation.frames(recipe, in), in, 100_000_000, budget(), null, out);

    List<BufferedImage> frames = frames(out);
    assertThat(frames).hasSize(2);
    assertNear(new Color(frames.get(0).getRGB(50, 50)), Color.RED, "frame 0: the disc, found");
    assertNear(new Color(frames.get(1).getRGB(50, 50)), Color.GRAY, "frame 1: the same place");
  }

  @Test
  void anAnimatedAvifIsASequenceOfEveryFrameInOrderWithItsDelayAndTheMark() throws IOException {
    Path out =
        write(
            MediaTypes.IMAGE_AVIF,
            new Watermark(mark(), "southeast", 2, 100, 0),
            TestImages.resize(100, 100));

    byte[] bytes = Files.readAllBytes(out);
    assertThat(new String(bytes, 8, 4, StandardCharsets.US_ASCII))
        .as("major brand")
        .isEqualTo("avis");
    AvifSequence sequence = AvifSequence.probe(out);
    assertThat(sequence.durations())
        .containsExactly("0.100000", "0.200000", "0.300000", "0.400000");
    List<BufferedImage> frames = sequence.frames(out);
    assertThat(frames).hasSize(FRAMES.length);
    for (int i = 0; i < FRAMES.length; i++) {
      BufferedImage frame = frames.get(i);
      assertThat(frame.getWidth()).isEqualTo(100);
      assertThat(frame.getHeight()).isEqualTo(50);
      assertNear(new Color(frame.getRGB(70, 30)), FRAMES[i], "frame " + i);
      assertNear(new Color(frame.getRGB(5, 5)), Color.WHITE, "frame " + i + "'s square");
      // the 10 x 5 mark 2 px in from the bottom right corner: x 88..97, y 43..47
      assertNear(new Color(frame.getRGB(92, 45)), MARK, "frame " + i + "'s mark");
    }
  }

  /** A 200 x 100 grey frame with a red disc of radius 30 centred at {@code x}, 50. */
  private static BufferedImage spot(int x) {
    BufferedImage frame = TestImages.bands(200, 100, Color.GRAY);
    java.awt.Graphics2D g = frame.createGraphics();
    g.setColor(Color.RED);
    g.fillOval(x - 30, 20, 60, 60);
    g.dispose();
    return frame;
  }

  private static double luma(Color c) {
    return 0.299 * c.getRed() + 0.587 * c.getGreen() + 0.114 * c.getBlue();
  }

  /** A 10 x 5 opaque {@link #MARK} PNG. */
  private Path mark() throws IOException {
    Path mark = dir.resolve("mark.png");
    Files.write(mark, TestImages.encode(TestImages.bands(10, 5, MARK), "png"));
    return mark;
  }

  /** {@link AnimationTest#gif} made as {@code mediaType} by {@code operations} and the mark. */
  private Path write(String mediaType, Watermark watermark, Operation... operations)
      throws IOException {
    Path in = dir.resolve("in.gif");
    Files.write(in, AnimationTest.gif());
    Path out = dir.resolve("out." + mediaType.substring(6));
    List<Operation> all = new ArrayList<>(List.of(operations));
    all.add(new Operation(ImageRecipe.ENCODE, Map.of("mediaType", mediaType, "animated", true)));
    ImageRecipe recipe = recipe(all);
    Animation.Frames header = Animation.frames(recipe, in);
    assertThat(header).as("an animation").isNotNull();
    Animation.write(recipe, header, in, 100_000_000, budget(), watermark, out);
    return out;
  }

  private static ImageRecipe recipe(List<Operation> operations) {
    return ImageRecipe.of(
        TestImages.declared(TestImages.step(operations.toArray(Operation[]::new))));
  }

  private static MemoryBudget budget() {
    return MemoryBudget.forThisProcess(0);
  }
}
