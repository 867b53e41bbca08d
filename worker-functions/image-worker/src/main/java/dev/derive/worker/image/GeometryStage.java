package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;

/**
 * The recipe's turn and mirrors after the crop or canvas, in {@link Geometry}'s order: rotate
 * (clockwise, libvips' {@code rot}), flip (top to bottom), flop (left to right; both {@code flip}).
 * Greyscale (BT.601 luma, rounded as {@link Geometry} rounds it) stays on the Java path.
 */
final class GeometryStage implements Stage {
  @Override
  public void apply(PipelineContext context) {
    Vips vips = context.vips();
    ImageRecipe recipe = context.recipe();
    if (recipe.rotate() == 0 && !recipe.flip() && !recipe.flop()) {
      return;
    }
    context.inMemory(); // a turn or a flip reads rows out of order
    if (recipe.rotate() != 0) {
      context.replace(
          vips.operation("rot")
              .set("in", context.image())
              .set("angle", "d" + recipe.rotate())
              .image());
    }
    if (recipe.flip()) {
      context.replace(
          vips.operation("flip").set("in", context.image()).set("direction", "vertical").image());
    }
    if (recipe.flop()) {
      context.replace(
          vips.operation("flip").set("in", context.image()).set("direction", "horizontal").image());
    }
  }
}
