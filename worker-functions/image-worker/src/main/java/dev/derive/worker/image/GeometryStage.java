package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;

/**
 * The recipe's turn, mirrors and greyscale after the crop or canvas, in sharp's order: rotate
 * (clockwise, libvips' {@code rot}), flip (top to bottom), flop (left to right; both {@code flip}),
 * greyscale (ITU-R BT.601 luma in every colour band, alpha kept; padding a contain added turns grey
 * with the picture).
 */
final class GeometryStage implements Stage {
  /** BT.601 luma weights of red, green and blue, applied to the 8-bit sRGB values as they are. */
  private static final double[] LUMA = {0.299, 0.587, 0.114};

  @Override
  public void apply(PipelineContext context) {
    Vips vips = context.vips();
    ImageRecipe recipe = context.recipe();
    if (recipe.rotate() != 0 || recipe.flip() || recipe.flop()) {
      context.inMemory(); // a turn or a flip reads rows out of order
    }
    if (recipe.rotate() != 0) {
      context.replace(
          vips.operation("rot")
              .set("in", context.image())
              .set("angle", "d" + recipe.rotate())
              .image());
    }
    if (recipe.flip()) {
      context.replace(
          vips.operation("flip").set("in", context.image()).set("direction", "vertical").image());
    }
    if (recipe.flop()) {
      context.replace(
          vips.operation("flip").set("in", context.image()).set("direction", "horizontal").image());
    }
    if (recipe.greyscale()) {
      context.replace(greyscale(vips, context.image()));
    }
  }

  /**
   * {@code image} (8-bit sRGB) with {@code round(0.299 R + 0.587 G + 0.114 B)} in its three colour
   * bands, alpha unchanged. The sum is taken in double precision, in that order, and rounded half
   * up ({@code floor(x + 0.5)}), so every value is the one {@code Math.round} gives (libvips'
   * {@code colourspace b-w} weighs linear light and {@code recomb} sums in single precision: both
   * differ).
   */
  static VipsImage greyscale(Vips vips, VipsImage image) {
    try (VipsImage samples =
            vips.operation("cast").set("in", image).set("format", "double").image();
        VipsImage red = band(vips, samples, 0, LUMA[0]);
        VipsImage green = band(vips, samples, 1, LUMA[1]);
        VipsImage blue = band(vips, samples, 2, LUMA[2]);
        VipsImage sum =
            vips.operation("sum").set("in", new VipsImage[] {red, green, blue}).image();
        VipsImage half =
            vips.operation("linear")
                .set("in", sum)
                .set("a", new double[] {1})
                .set("b", new double[] {0.5})
                .image();
        VipsImage floor = vips.operation("round").set("in", half).set("round", "floor").image();
        VipsImage luma = vips.cast(floor, Vips.FORMAT_UCHAR);
        VipsImage alpha =
            image.bands() == 4
                ? vips.operation("extract_band").set("in", image).set("band", 3).image()
                : null;
        VipsImage joined =
            vips.operation("bandjoin")
                .set(
                    "in",
                    alpha == null
                        ? new VipsImage[] {luma, luma, luma}
                        : new VipsImage[] {luma, luma, luma, alpha})
                .image()) {
      return vips.operation("copy").set("in", joined).set("interpretation", "srgb").image();
    }
  }

  /** Band {@code band} of {@code samples} times {@code weight}. */
  private static VipsImage band(Vips vips, VipsImage samples, int band, double weight) {
    try (VipsImage one =
        vips.operation("extract_band").set("in", samples).set("band", band).image()) {
      return vips.operation("linear")
          .set("in", one)
          .set("a", new double[] {weight})
          .set("b", new double[] {0})
          .image();
    }
  }
}
