package dev.derive.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.protocol.MediaTypes;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * The image rows whose anchor is the {@code vips} command: {@code animated_gif} ({@code vips
 * thumbnail} over all pages) and {@code watermark} ({@code vips thumbnail} then {@code vips
 * composite2}); Derive's side is timed in this JVM, as in {@link ImageRows}.
 */
final class VipsCommandRows {
  /** The mark: its side and its margin from the picture's edges, in pixels. */
  private static final int MARK_SIZE = 64;

  private static final int MARK_MARGIN = 8;

  private final Scale scale;
  private final Results results;
  private final NativeTools tools;
  private final Path scratch;
  private final WorkerRows workers;

  VipsCommandRows(
      Scale scale, Results results, NativeTools tools, Path scratch, WorkerRows workers) {
    this.scale = scale;
    this.results = results;
    this.tools = tools;
    this.scratch = scratch;
    this.workers = workers;
  }

  /** Measures {@code animated_gif} on {@code gif}, then {@code watermark} on {@code photo}. */
  void run(Path photo, Path gif) throws Exception {
    animatedGif(gif);
    watermark(photo);
  }

  /**
   * {@code animated_gif}: every frame of an animated GIF resized into 256 x 256 and saved as an
   * animated GIF, against {@code vips thumbnail in.gif[n=-1] out.gif 256} (all pages, a process per
   * image), interleaved run by run. Each side saves with its own default GIF effort (Derive's for
   * an animation 4, {@code ImageEncoder.ANIMATED_GIF_DEFAULT_EFFORT}; libvips' gifsave 7).
   */
  private void animatedGif(Path gif) throws Exception {
    String anchorName = "vips thumbnail in.gif[n=-1] out.gif 256 --height 256";
    Optional<Path> vips = tools.tool("vips");
    if (vips.isEmpty()) {
      results.add(Row.unmeasured("animated_gif", "ms", anchorName, 1.0, tools.whyMissing("vips")));
      return;
    }
    ObjectNode target =
        WorkerRows.target(MediaTypes.IMAGE_GIF)
            .put("width", 256)
            .put("height", 256)
            .put("animated", true);
    Path out = scratch.resolve("vips-thumbnail-animated.gif");
    List<Stats> both =
        Timer.interleaved(
            scale.workerWarmups(),
            scale.workerRuns(),
            workers.action(gif, MediaTypes.IMAGE_GIF, target),
            run ->
                NativeTools.run(
                    List.of(
                        vips.get().toString(),
                        "thumbnail",
                        gif + "[n=-1]",
                        out.toString(),
                        "256",
                        "--height",
                        "256")));
    results.add(
        new Row(
            "animated_gif",
            both.get(0).median(),
            "ms",
            anchorName,
            both.get(1).median(),
            1.0,
            "ImageTransformer → every frame inside 256 x 256, animated GIF, of "
                + gif.getFileName()
                + " ("
                + Files.size(gif) / 1024
                + " KiB), interleaved, median of "
                + both.get(0).count()));
  }

  /**
   * {@code watermark}: the 256 px JPEG thumbnail with a 64 px translucent PNG mark ({@link
   * #writeMark}) at its south-east corner, {@value #MARK_MARGIN} px in, against what a user of the
   * libvips tools runs for it: {@code vips thumbnail} into a {@code .v} file, then {@code vips
   * composite2} of the mark over it into the JPEG (two processes), interleaved run by run.
   */
  private void watermark(Path photo) throws Exception {
    String anchor = "vips thumbnail photo.jpg t.v 256 --height 256 + vips composite2 t.v mark.png";
    tools.measureWith(
        "vips",
        results,
        "watermark",
        anchor,
        1.0,
        vips -> {
          Path mark = writeMark(scratch.resolve("mark.png"));
          ObjectNode target =
              WorkerRows.thumbnailTarget()
                  .put("watermark", "bench/mark.png")
                  .put("watermarkGravity", "southeast")
                  .put("watermarkMargin", MARK_MARGIN);
          Timer.Action derive =
              workers.action(photo, MediaTypes.IMAGE_JPEG, target, Map.of("watermark", mark));
          Dimension box = thumbnailSize(photo);
          Path thumbnail = scratch.resolve("vips-watermark-base.v");
          Path out = scratch.resolve("vips-watermark.jpg");
          List<Stats> both =
              Timer.interleaved(
                  scale.workerWarmups(),
                  scale.workerRuns(),
                  derive,
                  run -> {
                    NativeTools.run(
                        List.of(
                            vips.toString(),
                            "thumbnail",
                            photo.toString(),
                            thumbnail.toString(),
                            "256",
                            "--height",
                            "256"));
                    NativeTools.run(
                        List.of(
                            vips.toString(),
                            "composite2",
                            thumbnail.toString(),
                            mark.toString(),
                            out + "[Q=85,strip]",
                            "over",
                            "--x",
                            String.valueOf(box.width - MARK_SIZE - MARK_MARGIN),
                            "--y",
                            String.valueOf(box.height - MARK_SIZE - MARK_MARGIN)));
                  });
          results.add(
              new Row(
                  "watermark",
                  both.get(0).median(),
                  "ms",
                  anchor + " over --x --y (Q=85, strip), two processes",
                  both.get(1).median(),
                  1.0,
                  "ImageTransformer → 256 px JPEG q85 with a "
                      + MARK_SIZE
                      + " px translucent PNG mark south-east, "
                      + MARK_MARGIN
                      + " px in (watermark operation, the mark a local file as a worker has it),"
                      + " interleaved, median of "
                      + both.get(0).count()));
        });
  }

  /**
   * Writes the watermark row's mark to {@code file}: a {@value #MARK_SIZE} px PNG with alpha, a
   * translucent disc with an opaque ring on a transparent ground, as a logo is.
   */
  private static Path writeMark(Path file) throws IOException {
    BufferedImage mark = new BufferedImage(MARK_SIZE, MARK_SIZE, BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = mark.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(new Color(20, 60, 200, 150));
    g.fillOval(4, 4, MARK_SIZE - 8, MARK_SIZE - 8);
    g.setColor(Color.WHITE);
    g.setStroke(new BasicStroke(4));
    g.drawOval(4, 4, MARK_SIZE - 8, MARK_SIZE - 8);
    g.dispose();
    ImageIO.write(mark, "png", file.toFile());
    return file;
  }

  /** The size of the 256 x 256 inside thumbnail of {@code photo} (its header read by ImageIO). */
  private static Dimension thumbnailSize(Path photo) throws IOException {
    try (ImageInputStream in = ImageIO.createImageInputStream(photo.toFile())) {
      ImageReader reader = ImageIO.getImageReaders(in).next();
      reader.setInput(in);
      double scale = 256.0 / Math.max(reader.getWidth(0), reader.getHeight(0));
      Dimension size =
          new Dimension(
              (int) Math.round(reader.getWidth(0) * scale),
              (int) Math.round(reader.getHeight(0) * scale));
      reader.dispose();
      return size;
    }
  }
}
