package dev.derive.worker.image;

import dev.derive.worker.libvips.VipsImage;
import java.awt.Rectangle;

/**
 * {@link CropStage} for the frames of one animation: the region a cover's overflow is cut at is
 * found once, on the first frame (a smart or entropy crop looks at its pixels), and the same region
 * is cut from every later frame, so the picture does not jump from frame to frame as a smart crop
 * of each frame would make it.
 */
final class FirstFrameCrop implements Stage {
  private final CropStage crop = new CropStage();
  private Rectangle region;

  @Override
  public void apply(PipelineContext context) {
    VipsImage image = context.image();
    if (region == null) {
      crop.apply(context);
      VipsImage cut = context.image();
      // extract_area (and smartcrop, which ends in one) records where it cut, negated
      region =
          new Rectangle(
              cut == image ? 0 : -cut.integer("xoffset").orElse(0),
              cut == image ? 0 : -cut.integer("yoffset").orElse(0),
              cut.width(),
              cut.height());
      return;
    }
    if (region.x == 0
        && region.y == 0
        && region.width == image.width()
        && region.height == image.height()) {
      return;
    }
    context.replace(
        context.vips().extractArea(image, region.x, region.y, region.width, region.height));
  }
}
