package dev.derive.worker.image;

/**
 * The {@value ImageRecipe#BACKGROUND} operation on the resized picture: its alpha flattened onto
 * the (opaque) colour with libvips' {@code flatten}, as {@link Canvas#flatten}; the same colour
 * then fills what {@link CanvasStage} and {@link PadStage} add.
 */
final class BackgroundStage implements Stage {
  private final NormaliseStage normalise = new NormaliseStage();

  @Override
  public void apply(PipelineContext context) {
    double[] background = context.background();
    if (background == null || context.image().bands() != 4) {
      return;
    }
    context.replace(
        context
            .vips()
            .operation("flatten")
            .set("in", context.image())
            .set("background", background)
            .image());
    normalise.apply(context); // 8-bit sRGB, whatever format flatten computed in
  }
}
