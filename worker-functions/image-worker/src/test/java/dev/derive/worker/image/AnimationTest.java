package dev.derive.worker.image;

import static dev.derive.worker.image.TestImages.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.ImageTypeSpecifier;
import javax.imageio.ImageWriter;
import javax.imageio.metadata.IIOMetadata;
import javax.imageio.metadata.IIOMetadataNode;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.ImageOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Animated output (issue 29 part 2): every frame, in order, resized, with its delay; read back by
 * the JDK's GIF reader and by libvips over all pages.
 */
class AnimationTest {
  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  static final Color[] FRAMES = {Color.RED, Color.GREEN, Color.BLUE, Color.YELLOW};

  /** Centiseconds each frame of {@link #gif} shows. */
  private static final int[] DELAYS = {10, 20, 30, 40};

  /**
   * A looping GIF of 200 x 100 frames, each flat {@link #FRAMES}[i] with a white 20 px square at
   * its top left, shown {@link #DELAYS}[i] centiseconds.
   */
  static byte[] gif() throws IOException {
    List<BufferedImage> frames = new ArrayList<>();
    for (Color colour : FRAMES) {
      BufferedImage frame = TestImages.bands(200, 100, colour);
      for (int y = 0; y < 20; y++) {
        for (int x = 0; x < 20; x++) {
          frame.setRGB(x, y, 0xFFFFFF);
        }
      }
      frames.add(frame);
    }
    return gif(frames, DELAYS);
  }

  /** A looping GIF of {@code frames} (the JDK's writer), each shown {@code delays}[i] cs. */
  static byte[] gif(List<BufferedImage> frames, int[] delays) throws IOException {
    ImageWriter writer = ImageIO.getImageWritersByFormatName("gif").next();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ImageOutputStream out = ImageIO.createImageOutputStream(bytes)) {
      writer.setOutput(out);
      writer.prepareWriteSequence(null);
      for (int i = 0; i < frames.size(); i++) {
        BufferedImage frame = frames.get(i);
        IIOMetadata metadata =
            writer.getDefaultImageMetadata(ImageTypeSpecifier.createFromRenderedImage(frame), null);
        String format = metadata.getNativeMetadataFormatName();
        IIOMetadataNode root = (IIOMetadataNode) metadata.getAsTree(format);
        IIOMetadataNode control = new IIOMetadataNode("GraphicControlExtension");
        control.setAttribute("disposalMethod", "none");
        control.setAttribute("userInputFlag", "FALSE");
        control.setAttribute("transparentColorFlag", "FALSE");
        control.setAttribute("delayTime", Integer.toString(delays[i]));
        control.setAttribute("transparentColorIndex", "0");
        root.appendChild(control);
        if (i == 0) {
          IIOMetadataNode applications = new IIOMetadataNode("ApplicationExtensions");
          IIOMetadataNode netscape = new IIOMetadataNode("ApplicationExtension");
          netscape.setAttribute("applicationID", "NETSCAPE");
          netscape.setAttribute("authenticationCode", "2.0");
          netscape.setUserObject(new byte[] {1, 0, 0}); // loop forever
          applications.appendChild(netscape);
          root.appendChild(applications);
        }
        metadata.setFromTree(format, root);
        writer.writeToSequence(new IIOImage(frame, null, metadata), null);
      }
      writer.endWriteSequence();
    } finally {
      writer.dispose();
    }
    return bytes.toByteArray();
  }

  @Test
  void anAnimatedGifKeepsEveryFrameInOrderResizedWithItsDelay() throws IOException {
    Path out = run(gif(), MediaTypes.IMAGE_GIF, TestImages.resize(100, 100));

    List<BufferedImage> frames = frames(out);
    assertThat(frames).hasSize(FRAMES.length);
    for (int i = 0; i < FRAMES.length; i++) {
      BufferedImage frame = frames.get(i);
      assertThat(frame.getWidth()).isEqualTo(100);
      assertThat(frame.getHeight()).isEqualTo(50);
      assertNear(new Color(frame.getRGB(70, 30)), FRAMES[i], "frame " + i);
      assertNear(new Color(frame.getRGB(4, 4)), Color.WHITE, "frame " + i + "'s square");
    }
    assertThat(gifDelays(out)).containsExactly(10, 20, 30, 40);
  }

  @Test
  void everyGifFrameStaysCloseInColourToItsSourceFrame() throws IOException {
    // 8 frames of smooth gradients, a different blue in each: many colours for one palette
    List<BufferedImage> gradients = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      BufferedImage frame = new BufferedImage(160, 120, BufferedImage.TYPE_INT_RGB);
      for (int y = 0; y < 120; y++) {
        for (int x = 0; x < 160; x++) {
          frame.setRGB(x, y, new Color(x * 255 / 159, y * 255 / 119, i * 32).getRGB());
        }
      }
      gradients.add(frame);
    }
    Path in = Files.write(dir.resolve("gradients.gif"), gif(gradients, new int[8]));
    Path out = run(Files.readAllBytes(in), MediaTypes.IMAGE_GIF, TestImages.resize(80, 80));

    List<BufferedImage> made = frames(out);
    List<BufferedImage> source = new ArrayList<>();
    try (VipsImage all = Vips.shared().thumbnail(in, 80, 80, "n=-1")) {
      BufferedImage tall = VipsPixels.toJava(all);
      for (int i = 0; i < 8; i++) {
        source.add(tall.getSubimage(0, i * 60, 80, 60));
      }
    }
    assertThat(made).hasSize(8);
    for (int i = 0; i < 8; i++) {
      assertThat(PixelDifference.meanDifference(made.get(i), source.get(i)))
          .as("mean colour error of frame %d, of 255", i)
          .isLessThan(6.0);
    }
  }

  @Test
  void anAnimatedWebpOfTheGifHasEveryFrameInOrder() throws IOException {
    Path out = run(gif(), MediaTypes.IMAGE_WEBP, TestImages.resize(64, 64));

    List<BufferedImage> frames = frames(out);
    assertThat(frames).hasSize(FRAMES.length);
    for (int i = 0; i < FRAMES.length; i++) {
      assertThat(frames.get(i).getWidth()).isEqualTo(64);
      assertThat(frames.get(i).getHeight()).isEqualTo(32);
      assertNear(new Color(frames.get(i).getRGB(50, 20)), FRAMES[i], "frame " + i);
    }
  }

  @Test
  void withoutAnimatedTheFirstFrameIsMade() throws IOException {
    Path in = Files.write(dir.resolve("in.gif"), gif());
    Path out = dir.resolve("first.gif");
    transformer.transform(
        step(
            TestImages.resize(100, 100),
            new Operation(ImageRecipe.ENCODE, Map.of("mediaType", MediaTypes.IMAGE_GIF))),
        in,
        out);

    assertThat(frames(out)).hasSize(1);
  }

  @Test
  void aTrimIsRefusedNamingIt() throws IOException {
    byte[] gif = gif();
    assertThatThrownBy(
            () ->
                run(
                    gif,
                    MediaTypes.IMAGE_GIF,
                    new Operation(ImageRecipe.TRIM, Map.of("trim", 10)),
                    TestImages.resize(100, 100)))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            f -> {
              assertThat(f.type()).isEqualTo(StepErrorTypes.INVALID_STEP);
              assertThat(f.detail()).contains("trim").contains("leave out animated");
            });
  }

  @Test
  void framesOverThePixelLimitTogetherAreRefused() throws IOException {
    // 4 frames of 200 x 100 are 80 000 pixels; each alone is within 50 000
    assertThat(refusal(new ImageTransformer(50_000), MediaTypes.IMAGE_GIF).type())
        .isEqualTo(StepErrorTypes.INPUT_TOO_LARGE);
  }

  @Test
  void aBorderIsCountedAroundTheTurnedFrame() throws IOException {
    // 4 frames of 200 x 100 turned to 100 x 200, with 100 px left and right: 300 x 200 = 60 000 a
    // frame, 240 000 in all; counted around the unturned frame it would be 160 000, within 200 000
    PermanentStepFailure refused =
        refusal(
            new ImageTransformer(200_000),
            MediaTypes.IMAGE_GIF,
            new Operation(ImageRecipe.ROTATE, Map.of("angle", 90)),
            new Operation(
                ImageRecipe.PAD,
                Map.of("padTop", 0, "padRight", 100, "padBottom", 0, "padLeft", 100)));
    assertThat(refused.type()).isEqualTo(StepErrorTypes.OUTPUT_TOO_LARGE);
  }

  @Test
  void anAnimatedAvifWhoseFramesWouldFillTheScratchSpaceIsRefusedBeforeDecoding()
      throws IOException {
    // 4 frames of 7000 x 3500 are 98 000 000 pixels, within the pixel limit; as RGB PNGs they
    // would take about 294 MB of the step's folder, over its 256 MB
    PermanentStepFailure refused =
        refusal(transformer, MediaTypes.IMAGE_AVIF, TestImages.resize(7000, 3500, false));
    assertThat(refused.type()).isEqualTo(StepErrorTypes.INPUT_TOO_LARGE);
    assertThat(refused.detail())
        .contains("4 frames of 7000x3500")
        .contains("temporary disk space")
        .contains("256 MB")
        .doesNotContain("Exception")
        .doesNotContain("AnimatedAvif");
    try (var left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .as("no frame written")
          .containsOnly("in.gif");
    }
  }

  @Test
  void anAvifSequenceFfmpegCannotWriteFailsAtOnceWithASentence() throws IOException {
    Path notAFile = Files.createDirectory(dir.resolve("out.avif")); // FFmpeg cannot write here
    Vips vips = Vips.shared();
    try (VipsImage roll =
        vips.thumbnail(Files.write(dir.resolve("in.gif"), gif()), 64, 64, "n=-1")) {
      assertThatThrownBy(
              () ->
                  AnimatedAvif.write(
                      vips,
                      roll,
                      FRAMES.length,
                      DELAYS,
                      0,
                      70,
                      9,
                      new double[] {255, 255, 255},
                      notAFile))
          .isInstanceOfSatisfying(
              PermanentStepFailure.class,
              f -> {
                assertThat(f.type()).isEqualTo(StepErrorTypes.WORKER_FAILED);
                assertThat(f.detail()).contains("AVIF sequence").doesNotContain("Exception");
              });
    }
    try (var left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .as("the frames' folder is gone")
          .containsOnly("in.gif", "out.avif");
    }
  }

  /**
   * What {@code by} refuses {@link #gif} with, made into an animated {@code mediaType} after {@code
   * before}.
   */
  private PermanentStepFailure refusal(ImageTransformer by, String mediaType, Operation... before)
      throws IOException {
    Path in = Files.write(dir.resolve("in.gif"), gif());
    List<Operation> operations = new ArrayList<>(List.of(before));
    operations.add(
        new Operation(ImageRecipe.ENCODE, Map.of("mediaType", mediaType, "animated", true)));
    Throwable thrown =
        catchThrowable(
            () -> by.transform(step(operations.toArray(Operation[]::new)), in, dir.resolve("out")));
    assertThat(thrown).isInstanceOf(PermanentStepFailure.class);
    return (PermanentStepFailure) thrown;
  }

  private Path run(byte[] input, String mediaType, Operation... before) throws IOException {
    Path in = Files.createTempFile(dir, "in", ".gif");
    Path out = Files.createTempFile(dir, "out", ".bin");
    Files.write(in, input);
    List<Operation> operations = new ArrayList<>(List.of(before));
    operations.add(
        new Operation(ImageRecipe.ENCODE, Map.of("mediaType", mediaType, "animated", true)));
    transformer.transform(step(operations.toArray(Operation[]::new)), in, out);
    return out;
  }

  /** Every frame of {@code file}, composited, as libvips loads all its pages. */
  static List<BufferedImage> frames(Path file) {
    Vips vips = Vips.shared();
    int pages;
    try (VipsImage header = vips.open(file)) {
      pages = header.pages();
    }
    List<BufferedImage> frames = new ArrayList<>();
    try (VipsImage all = vips.thumbnail(file, 10_000, 10_000, "n=-1")) {
      BufferedImage tall = VipsPixels.toJava(all);
      int height = tall.getHeight() / pages;
      for (int i = 0; i < pages; i++) {
        frames.add(tall.getSubimage(0, i * height, tall.getWidth(), height));
      }
    }
    return frames;
  }

  /** The delay of each frame of a GIF, in centiseconds, as the JDK's reader sees it. */
  static List<Integer> gifDelays(Path gif) throws IOException {
    List<Integer> delays = new ArrayList<>();
    ImageReader reader = ImageIO.getImageReadersByFormatName("gif").next();
    try (ImageInputStream in = ImageIO.createImageInputStream(gif.toFile())) {
      reader.setInput(in);
      int count = reader.getNumImages(true);
      for (int i = 0; i < count; i++) {
        IIOMetadataNode root =
            (IIOMetadataNode) reader.getImageMetadata(i).getAsTree("javax_imageio_gif_image_1.0");
        IIOMetadataNode control =
            (IIOMetadataNode) root.getElementsByTagName("GraphicControlExtension").item(0);
        delays.add(Integer.parseInt(control.getAttribute("delayTime")));
      }
    } finally {
      reader.dispose();
    }
    return delays;
  }

  static void assertNear(Color actual, Color expected, String what) {
    assertThat(Math.abs(actual.getRed() - expected.getRed())).as(what + " red").isLessThan(40);
    assertThat(Math.abs(actual.getGreen() - expected.getGreen()))
        .as(what + " green")
        .isLessThan(40);
    assertThat(Math.abs(actual.getBlue() - expected.getBlue())).as(what + " blue").isLessThan(40);
  }
}
