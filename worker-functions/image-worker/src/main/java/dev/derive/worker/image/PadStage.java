package dev.derive.worker.image;

import dev.derive.worker.libvips.VipsImage;

/**
 * The {@value ImageRecipe#PAD} border around the finished image (after geometry and effects), as
 * {@link Padding#apply} with no background: transparent where the output format keeps alpha, else
 * white.
 */
final class PadStage implements Stage {
  @Override
  public void apply(PipelineContext context) {
    Padding pad = context.recipe().pad();
    if (pad == null) {
      return;
    }
    VipsImage image = context.image();
    CanvasStage.embed(
        context, pad.left(), pad.top(), pad.width(image.width()), pad.height(image.height()));
  }
}
