package dev.derive.worker.image;

/**
 * The recipe's blur and sharpen on the image, as {@link Effects} (the same libvips operations), the
 * result 8-bit sRGB again ({@link NormaliseStage}) as the Java path's copy back made it.
 */
final class EffectsStage implements Stage {
  private final NormaliseStage normalise = new NormaliseStage();

  @Override
  public void apply(PipelineContext context) {
    if (Effects.any(context.recipe())) {
      context.inMemory(); // the convolutions read around each pixel
      context.replace(Effects.apply(context.vips(), context.image(), context.recipe()));
      normalise.apply(context);
    }
  }
}
