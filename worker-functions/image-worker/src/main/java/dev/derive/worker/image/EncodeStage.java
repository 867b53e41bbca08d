package dev.derive.worker.image;

import dev.derive.protocol.MediaTypes;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;

/**
 * Writes the image with libvips' saver for the output format, no metadata ({@link Vips#KEEP_NONE}):
 * JPEG by {@code jpegsave} (mozjpeg in its libjpeg-compatible profile, so quality {@code q} gives
 * the same IJG tables as the JDK's writer at {@code q / 100}; chroma always 4:2:0 as the JDK writes
 * it; progressive when asked), PNG by {@code pngsave} (8-bit, alpha kept), WebP, AVIF and GIF as
 * {@link ImageEncoder} (the same savers and efforts); the image declaration writes no other format.
 * A picture still translucent for a format without alpha (a translucent background's) is flattened
 * onto white first.
 */
final class EncodeStage implements Stage {
  @Override
  public void apply(PipelineContext context) {
    Vips vips = context.vips();
    if (context.image().bands() == 4 && !context.keepsAlpha()) {
      context.replace(
          vips.operation("flatten")
              .set("in", context.image())
              .set("background", NormaliseStage.WHITE)
              .image());
      context.replace(vips.cast(context.image(), Vips.FORMAT_UCHAR));
    }
    VipsImage image = context.image();
    ImageRecipe recipe = context.recipe();
    String mediaType = recipe.mediaType();
    String file = context.output().toString();
    if (MediaTypes.IMAGE_JPEG.equals(mediaType)) {
      vips.operation("jpegsave")
          .set("in", image)
          .set("filename", file)
          .set("Q", recipe.quality())
          .set("interlace", recipe.progressive())
          .set("subsample_mode", "on")
          .set("keep", Vips.KEEP_NONE)
          .run();
      return;
    }
    if (MediaTypes.IMAGE_PNG.equals(mediaType)) {
      vips.operation("pngsave")
          .set("in", image)
          .set("filename", file)
          .set("keep", Vips.KEEP_NONE)
          .run();
      return;
    }
    int effort =
        ImageEncoder.effort(mediaType, recipe.effort(), (long) image.width() * image.height());
    if (MediaTypes.IMAGE_WEBP.equals(mediaType)) {
      vips.saveWebp(image, context.output(), recipe.quality(), recipe.lossless(), effort);
    } else if (MediaTypes.IMAGE_GIF.equals(mediaType)) {
      vips.saveGif(image, context.output(), effort);
    } else {
      vips.saveAvif(image, context.output(), recipe.quality(), effort);
    }
  }
}
