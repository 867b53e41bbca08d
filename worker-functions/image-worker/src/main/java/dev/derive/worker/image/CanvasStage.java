package dev.derive.worker.image;

import dev.derive.worker.libvips.VipsImage;

/**
 * Centres the image on the output size where it is smaller ({@code contain}): padded with
 * transparency where the output format keeps alpha (an alpha band is added for it), else with
 * white; the odd pixel goes at the end, as {@link Canvas#centre}.
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
    boolean alpha = context.keepsAlpha();
    if (alpha && image.bands() == 3) {
      context.replace(
          context
              .vips()
              .operation("bandjoin_const")
              .set("in", image)
              .set("c", new double[] {255})
              .image());
    }
    context.replace(
        context
            .vips()
            .operation("embed")
            .set("in", context.image())
            .set("x", Canvas.offset(width, context.image().width()))
            .set("y", Canvas.offset(height, context.image().height()))
            .set("width", width)
            .set("height", height)
            .set("extend", "background")
            .set("background", alpha ? TRANSPARENT : NormaliseStage.WHITE)
            .image());
  }
}
