package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsException;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.Parameters;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.image.BufferedImage;
import java.nio.file.Path;

/**
 * A watermark composed over the finished picture (after the effects and the padding, before the
 * encoding), as imgproxy's {@code wm:} does: another image, scaled to {@code scale} percent of the
 * picture's width (never enlarged past its own size when {@code scale} is 0), its alpha multiplied
 * by {@code opacity} percent ({@code linear} on the alpha band), placed at a compass {@code
 * gravity} {@code margin} pixels in from the edges it touches, and laid {@code over} the picture
 * with libvips' {@code composite2}. A mark larger than the picture is clipped at the picture's
 * edges.
 *
 * @param mark the watermark's file (another object of the source bucket, fetched beside the source)
 * @param gravity {@code centre}, {@code north}, {@code northeast}, … {@code northwest}
 * @param margin pixels between the mark and the edges it sits against (0 or more)
 * @param opacity percent, 1 to 100
 * @param scale percent of the picture's width the mark is made as wide as; 0 keeps its own size
 */
record Watermark(Path mark, String gravity, int margin, int opacity, int scale) {
  /** The stable type of a watermark that is not an image libvips reads. */
  static final String UNREADABLE = "watermark-unreadable";

  Watermark {
    if (opacity < 1 || opacity > 100 || scale < 0 || margin < 0) {
      throw new IllegalArgumentException(
          "opacity 1-100, scale and margin 0 or more: " + opacity + ", " + scale + ", " + margin);
    }
  }

  /** The name of the operation ({@code capability.json}). */
  static final String OPERATION = "watermark";

  /**
   * {@code step}'s watermark, or {@code null} when the step applies none.
   *
   * @throws PermanentStepFailure {@code invalid-step} if it applies one but names no object
   */
  static Watermark of(DeclaredStep step) {
    Parameters p = step.operation(OPERATION).orElse(null);
    if (p == null) {
      return null;
    }
    Path mark =
        step.object(OPERATION)
            .orElseThrow(
                () ->
                    new PermanentStepFailure(
                        StepErrorTypes.INVALID_STEP, "the step names no watermark object"));
    return new Watermark(
        mark,
        p.string("watermarkGravity"),
        p.integer("watermarkMargin"),
        p.integer("watermarkOpacity"),
        p.integer("watermarkScale"));
  }

  /** {@code image} with the mark over it ({@code image} is kept). */
  BufferedImage over(BufferedImage image) {
    try (VipsImage base = VipsPixels.toVips(image);
        VipsImage composed = over(Vips.shared(), base)) {
      return VipsPixels.toJava(composed);
    }
  }

  /**
   * A new image: {@code image} (sRGB or grey, with or without alpha, 8 bits) with the mark over it,
   * with the bands {@code image} has.
   *
   * @throws PermanentStepFailure {@value #UNREADABLE} if the mark is not an image libvips reads
   */
  VipsImage over(Vips vips, VipsImage image) {
    try (VipsImage mark = markFor(vips, image.width());
        VipsImage base = withAlpha(vips, srgb(vips, image));
        VipsImage composed =
            vips.operation("composite2")
                .set("base", base)
                .set("overlay", mark)
                .set("mode", "over")
                .set("x", x(image.width(), mark.width()))
                .set("y", y(image.height(), mark.height()))
                .image();
        VipsImage bytes = vips.cast(composed, Vips.FORMAT_UCHAR)) {
      return bands(vips, bytes, image);
    }
  }

  /** The mark read, sRGB with alpha, scaled to the picture and faded to its opacity. */
  private VipsImage markFor(Vips vips, int pictureWidth) {
    VipsImage read;
    try {
      read = vips.open(mark);
    } catch (VipsException e) {
      throw new PermanentStepFailure(
          UNREADABLE, "the watermark is not an image Derive reads: " + e.getMessage(), e);
    }
    try (read;
        VipsImage scaled = scaled(vips, read, pictureWidth);
        VipsImage coloured = srgb(vips, scaled);
        VipsImage alpha = withAlpha(vips, coloured);
        VipsImage faded =
            vips.operation("linear")
                .set("in", alpha)
                .set("a", new double[] {1, 1, 1, opacity / 100.0})
                .set("b", new double[] {0, 0, 0, 0})
                .image()) {
      return vips.cast(faded, Vips.FORMAT_UCHAR);
    }
  }

  private VipsImage scaled(Vips vips, VipsImage read, int pictureWidth) {
    if (scale == 0) {
      return reference(vips, read);
    }
    int width = Math.max(1, (int) Math.round(pictureWidth * scale / 100.0));
    return vips.resize(read, (double) width / read.width());
  }

  private int x(int picture, int mark) {
    if (gravity.endsWith("west")) {
      return margin;
    }
    if (gravity.endsWith("east")) {
      return picture - mark - margin;
    }
    return (picture - mark) / 2;
  }

  private int y(int picture, int mark) {
    if (gravity.startsWith("north")) {
      return margin;
    }
    if (gravity.startsWith("south")) {
      return picture - mark - margin;
    }
    return (picture - mark) / 2;
  }

  /** {@code image} as sRGB (a grey image made colour; an sRGB one referenced again). */
  private static VipsImage srgb(Vips vips, VipsImage image) {
    return vips.colourspace(image, Vips.INTERPRETATION_SRGB);
  }

  /** {@code image} (sRGB) with an alpha band, opaque where it had none. */
  private static VipsImage withAlpha(Vips vips, VipsImage image) {
    if (image.hasAlpha()) {
      return reference(vips, image);
    }
    return vips.operation("bandjoin_const").set("in", image).set("c", new double[] {255}).image();
  }

  /** A new reference to {@code image} (libvips' {@code copy}: no pixels are copied). */
  private static VipsImage reference(Vips vips, VipsImage image) {
    return vips.operation("copy").set("in", image).image();
  }

  /** {@code composed} (sRGB with alpha) with the bands of {@code like}. */
  private static VipsImage bands(Vips vips, VipsImage composed, VipsImage like) {
    boolean grey = like.bands() - (like.hasAlpha() ? 1 : 0) == 1;
    try (VipsImage interpreted =
        grey ? vips.colourspace(composed, Vips.INTERPRETATION_B_W) : reference(vips, composed)) {
      int colours = grey ? 1 : 3;
      if (like.hasAlpha()) {
        return reference(vips, interpreted);
      }
      return vips.operation("extract_band")
          .set("in", interpreted)
          .set("band", 0)
          .set("n", colours)
          .image();
    }
  }
}
