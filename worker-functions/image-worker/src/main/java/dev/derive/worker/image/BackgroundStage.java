package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;

/**
 * The {@value ImageRecipe#BACKGROUND} operation on the resized picture (sharp's {@code flatten},
 * imgproxy's {@code bg:}): its alpha composed over the colour, source over. An opaque colour leaves
 * no alpha (libvips' {@code flatten}); a translucent one leaves the picture as translucent as the
 * two together ({@code composite2} over a plane of the colour). The same colour then fills what
 * {@link CanvasStage} and {@link PadStage} add.
 */
final class BackgroundStage implements Stage {
  private final NormaliseStage normalise = new NormaliseStage();

  @Override
  public void apply(PipelineContext context) {
    double[] background = context.background();
    if (background == null || context.image().bands() != 4) {
      return;
    }
    Vips vips = context.vips();
    VipsImage image = context.image();
    if (background.length == 3) {
      context.replace(
          vips.operation("flatten").set("in", image).set("background", background).image());
    } else {
      try (VipsImage plane = plane(vips, image.width(), image.height(), background)) {
        context.replace(
            vips.operation("composite2")
                .set("base", plane)
                .set("overlay", image)
                .set("mode", "over")
                .image());
      }
    }
    normalise.apply(context); // 8-bit sRGB, whatever format flatten or composite computed in
  }

  /** A {@code width} x {@code height} 8-bit sRGB image of {@code rgba} everywhere. */
  static VipsImage plane(Vips vips, int width, int height, double[] rgba) {
    try (VipsImage black =
            vips.operation("black")
                .set("width", width)
                .set("height", height)
                .set("bands", rgba.length)
                .image();
        VipsImage filled =
            vips.operation("linear")
                .set("in", black)
                .set("a", new double[] {1})
                .set("b", rgba)
                .set("uchar", true)
                .image()) {
      return vips.operation("copy").set("in", filled).set("interpretation", "srgb").image();
    }
  }
}
