package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;

/**
 * Makes the decoded image 8-bit sRGB (grey, 16-bit and other spaces converted, as {@link
 * VipsPixels#toJava} did), with its alpha only where the output format keeps alpha: for the others
 * (JPEG) the picture is flattened onto white first, as the Java path's {@code Pixels.normalize};
 * with a {@value ImageRecipe#BACKGROUND} the alpha stays for {@link BackgroundStage}.
 */
final class NormaliseStage implements Stage {
  /** White, the colour a picture without alpha is flattened onto. */
  static final double[] WHITE = {255, 255, 255};

  @Override
  public void apply(PipelineContext context) {
    Vips vips = context.vips();
    VipsImage image = context.image();
    if (image.interpretation() != Vips.INTERPRETATION_SRGB) {
      context.replace(vips.colourspace(image, Vips.INTERPRETATION_SRGB));
    }
    if (context.image().format() != Vips.FORMAT_UCHAR) {
      context.replace(vips.cast(context.image(), Vips.FORMAT_UCHAR));
    }
    if (context.image().bands() == 4 && !context.keepsAlpha() && context.background() == null) {
      context.replace(
          vips.operation("flatten").set("in", context.image()).set("background", WHITE).image());
    }
  }
}
