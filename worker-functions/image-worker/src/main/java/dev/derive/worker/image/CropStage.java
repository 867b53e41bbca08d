package dev.derive.worker.image;

import dev.derive.worker.libvips.VipsImage;
import java.awt.Rectangle;

/**
 * Cuts a cover resize's overflow to the output size where the box's {@link CoverGravity} says:
 * libvips' {@code smartcrop} for {@code smart} (attention) and {@code entropy}, else the region at
 * the compass point or focal point ({@code extract_area}; the centre drops the odd pixel at the
 * start, as {@link Canvas#centre}).
 */
final class CropStage implements Stage {
  @Override
  public void apply(PipelineContext context) {
    VipsImage image = context.image();
    Placement placement = context.placement();
    int width = placement.width();
    int height = placement.height();
    if (image.width() <= width && image.height() <= height) {
      return;
    }
    ResizeBox box = context.recipe().box();
    CoverGravity gravity = box == null ? CoverGravity.CENTRED : box.gravity();
    int cutWidth = Math.min(width, image.width());
    int cutHeight = Math.min(height, image.height());
    if (gravity.looksAtPixels()) {
      context.inMemory(); // smartcrop reads the image more than once
      context.replace(
          context
              .vips()
              .operation("smartcrop")
              .set("input", context.image())
              .set("width", cutWidth)
              .set("height", cutHeight)
              .set(
                  "interesting",
                  gravity.name().equals(CoverGravity.SMART) ? "attention" : "entropy")
              .image());
      return;
    }
    Rectangle region =
        gravity.region(image.width(), image.height(), width, height, context.recipe().rotate());
    context.replace(
        context.vips().extractArea(image, region.x, region.y, region.width, region.height));
  }
}
