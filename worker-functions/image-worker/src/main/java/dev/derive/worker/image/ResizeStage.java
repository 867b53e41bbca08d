package dev.derive.worker.image;

import dev.derive.worker.libvips.VipsImage;

/**
 * Resamples the image to exactly its scaled size (Lanczos 3, libvips' {@code resize}): after the
 * decode's shrink-on-load this only corrects a side rounded differently, stretches for {@code
 * fill}, or enlarges (the decode never does).
 */
final class ResizeStage implements Stage {
  @Override
  public void apply(PipelineContext context) {
    VipsImage image = context.image();
    Placement placement = context.placement();
    int width = placement.scaledWidth();
    int height = placement.scaledHeight();
    if (image.width() == width && image.height() == height) {
      return;
    }
    double scale = (double) width / image.width();
    double vscale = (double) height / image.height();
    VipsImage resized =
        context
            .vips()
            .operation("resize")
            .set("in", image)
            .set("scale", scale)
            .set("vscale", vscale)
            .set("kernel", "lanczos3")
            .image();
    context.replace(resized);
    if (resized.width() != width || resized.height() != height) {
      // libvips rounds scale x side itself; a side one pixel off is cut or padded by the canvas
      context.replace(
          context
              .vips()
              .extractArea(
                  resized,
                  0,
                  0,
                  Math.min(width, resized.width()),
                  Math.min(height, resized.height())));
    }
  }
}
