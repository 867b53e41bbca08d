package dev.derive.worker.image;

import dev.derive.worker.libvips.VipsImage;

/**
 * Centres the image on the output size where it is smaller ({@code contain}): padded with
 * transparency where the output format keeps alpha (an alpha band is added for it), else with
 * white; the odd pixel goes at the end, as {@link Canvas#centre}. Also the {@value ImageRecipe#PAD}
 * border's fill ({@link PadStage}).
 */
final class CanvasStage implements Stage {
  private static final double[] TRANSPARENT = {0, 0, 0, 0};

  @Override
  public void apply(PipelineContext context) {
    VipsImage image = context.image();
    Placement placement = context.placement();
    int width = placement.width();
    int height = placement.height();
    if (image.width() >= width && image.height() >= height) {
      return;
    }
    embed(
        context,
        Canvas.offset(width, image.width()),
        Canvas.offset(height, image.height()),
        width,
        height);
  }

  /**
   * Places the image at {@code x}, {@code y} on {@code width} x {@code height} pixels of the step's
   * background, else of transparency where the output format keeps alpha, else of white: {@link
   * Canvas#centre}'s and {@link Padding#apply}'s colours. An alpha band is added where the fill is
   * not opaque (a translucent background is flattened onto white with the rest by {@link
   * EncodeStage} when the format has no alpha).
   */
  static void embed(PipelineContext context, int x, int y, int width, int height) {
    double[] background = context.background();
    boolean alpha = background == null ? context.keepsAlpha() : background.length == 4;
    if (alpha && context.image().bands() == 3) {
      context.replace(
          context
              .vips()
              .operation("bandjoin_const")
              .set("in", context.image())
              .set("c", new double[] {255})
              .image());
    }
    context.replace(
        context
            .vips()
            .operation("embed")
            .set("in", context.image())
            .set("x", x)
            .set("y", y)
            .set("width", width)
            .set("height", height)
            .set("extend", "background")
            .set(
                "background",
                background != null ? background : alpha ? TRANSPARENT : NormaliseStage.WHITE)
            .image());
  }
}
