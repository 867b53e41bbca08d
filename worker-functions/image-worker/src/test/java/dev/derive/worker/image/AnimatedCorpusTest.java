package dev.derive.worker.image;

import static dev.derive.worker.image.PixelDifference.premultipliedDifference;
import static dev.derive.worker.image.TestImages.step;
import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The corpus's animated GIFs and WebP kept animated (issue 29): as many frames as the source, each
 * the source's frame of that place fitted into the box (libvips' own decode of every page as the
 * reference, so what is checked is the count, the order and the resize of the frames, not libvips'
 * GIF decoder). The APNG is not a GIF or WebP: it gives its first frame ({@link
 * FirstFrameCorpusTest}).
 */
class AnimatedCorpusTest {
  @TempDir Path dir;

  private final ImageTransformer transformer = new ImageTransformer(100_000_000);

  @ParameterizedTest(name = "{0} as {1}")
  @CsvSource({
    "animated/gifplayer-muybridge.gif, image/gif, 10.0",
    "animated/gifplayer-muybridge.gif, image/webp, 1.0",
    "animated/rotating-squares.gif, image/gif, 10.0",
    "animated/rotating-squares.gif, image/webp, 1.0",
    "animated/dispose-previous.gif, image/gif, 10.0",
    "animated/dispose-previous.gif, image/webp, 1.0",
    "animated/apng4android-1.webp, image/gif, 10.0",
    "animated/apng4android-1.webp, image/webp, 1.0"
  })
  void everyFrameIsKeptInOrderAndResized(String sample, String mediaType, double tolerance)
      throws IOException {
    Path file = samples().resolve(sample);
    Path out = dir.resolve("out");
    transformer.transform(
        step(
            TestImages.resize(64, 64),
            new Operation(
                ImageRecipe.ENCODE,
                // lossless WebP: the frames' pixels, not the lossy encoder's error, are compared
                mediaType.equals(MediaTypes.IMAGE_WEBP)
                    ? Map.of("mediaType", mediaType, "animated", true, "lossless", true)
                    : Map.of("mediaType", mediaType, "animated", true))),
        file,
        out);

    List<BufferedImage> made = frames(out, 1_000);
    // the encoders merge a frame identical to the one before into it (its delay added), as
    // libvips' gifsave and libwebp's animation encoder do: compare with the source's runs
    List<BufferedImage> source = distinct(frames(file, 64));
    assertThat(made).hasSameSizeAs(source).hasSizeGreaterThan(1);
    for (int i = 0; i < made.size(); i++) {
      BufferedImage frame = made.get(i);
      assertThat(Math.max(frame.getWidth(), frame.getHeight())).isLessThanOrEqualTo(64);
      double own = premultipliedDifference(frame, source.get(i));
      assertThat(own).as("%s frame %d", sample, i).isLessThan(tolerance);
      // in order: no closer to the frame before or after than to its own
      for (int j : new int[] {i - 1, i + 1}) {
        if (j >= 0 && j < source.size()) {
          assertThat(own)
              .as("%s frame %d against frame %d", sample, i, j)
              .isLessThanOrEqualTo(premultipliedDifference(frame, source.get(j)));
        }
      }
    }
  }

  @ParameterizedTest(name = "{0} as AVIF")
  @CsvSource({"animated/rotating-squares.gif", "animated/dispose-previous.gif"})
  void everyFrameIsKeptInOrderInAnAvifSequenceFlattenedOntoWhite(String sample) throws IOException {
    Path file = samples().resolve(sample);
    Path out = dir.resolve("out.avif");
    transformer.transform(
        step(
            TestImages.resize(64, 64),
            new Operation(
                ImageRecipe.ENCODE,
                Map.of("mediaType", MediaTypes.IMAGE_AVIF, "animated", true, "quality", 90))),
        file,
        out);

    AvifSequence sequence = AvifSequence.probe(out);
    List<BufferedImage> made = sequence.frames(out);
    // AV1 keeps every frame, identical ones too; the source's transparency is white
    List<BufferedImage> source = new ArrayList<>();
    for (BufferedImage frame : frames(file, 64)) {
      source.add(Canvas.flatten(frame, java.awt.Color.WHITE));
    }
    assertThat(made).hasSameSizeAs(source).hasSizeGreaterThan(1);
    assertThat(sequence.durations()).hasSameSizeAs(source);
    for (int i = 0; i < made.size(); i++) {
      double own = PixelDifference.meanDifference(made.get(i), source.get(i));
      assertThat(own).as("%s frame %d", sample, i).isLessThan(8.0);
      for (int j : new int[] {i - 1, i + 1}) {
        if (j >= 0
            && j < source.size()
            && PixelDifference.meanDifference(source.get(i), source.get(j)) > 8) {
          assertThat(own)
              .as("%s frame %d against frame %d", sample, i, j)
              .isLessThan(PixelDifference.meanDifference(made.get(i), source.get(j)));
        }
      }
    }
  }

  /** {@code frames} with each frame equal to the one before left out. */
  private static List<BufferedImage> distinct(List<BufferedImage> frames) {
    List<BufferedImage> runs = new ArrayList<>();
    for (BufferedImage frame : frames) {
      if (runs.isEmpty() || premultipliedDifference(runs.getLast(), frame) > 0) {
        runs.add(frame);
      }
    }
    return runs;
  }

  /** Every frame of {@code file} as libvips composites its pages, fitted into {@code box}. */
  static List<BufferedImage> frames(Path file, int box) {
    Vips vips = Vips.shared();
    int pages;
    try (VipsImage header = vips.open(file)) {
      pages = header.pages();
    }
    List<BufferedImage> frames = new ArrayList<>();
    try (VipsImage all = vips.thumbnail(file, box, 10_000_000, "n=-1")) {
      BufferedImage tall = VipsPixels.toJava(all);
      int height = tall.getHeight() / pages;
      for (int i = 0; i < pages; i++) {
        frames.add(Pixels.copy(tall.getSubimage(0, i * height, tall.getWidth(), height)));
      }
    }
    return frames;
  }
}
