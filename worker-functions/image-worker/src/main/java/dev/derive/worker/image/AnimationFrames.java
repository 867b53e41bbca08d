package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import java.awt.Rectangle;
import java.nio.file.Path;
import java.util.List;

/**
 * The frames of an animation ({@link Animation}) each taken through the stages a still takes after
 * its resize, and stacked again: libvips' tall image of frames cut at each {@value #PAGE_HEIGHT}
 * ({@code extract_area}), each frame made, the frames joined in one column ({@code arrayjoin}) with
 * their new height.
 */
final class AnimationFrames {
  /** The header field of the height of one frame. */
  static final String PAGE_HEIGHT = "page-height";

  private AnimationFrames() {}

  /** Whether each frame is only resized: nothing reads a frame out of its top-to-bottom order. */
  static boolean onlyResized(ImageRecipe recipe) {
    ResizeBox box = recipe.box();
    return (box == null || box.fit() == Fit.INSIDE)
        && recipe.rotate() == 0
        && !recipe.flip()
        && !recipe.flop()
        && !recipe.greyscale()
        && !Effects.any(recipe)
        && recipe.pad() == null
        && recipe.background() == null;
  }

  /**
   * {@code roll}'s {@code frames} frames, each cut ({@code crop}) and taken through the stages
   * after the resize, stacked again with its new {@value #PAGE_HEIGHT}; the delays and loop count
   * are the first frame's header, which is the source's.
   */
  static VipsImage make(
      Vips vips,
      VipsImage roll,
      int frames,
      ImageRecipe recipe,
      Placement upright,
      Rectangle crop,
      Watermark watermark,
      Path output) {
    int frameHeight = roll.height() / frames;
    if (onlyResized(recipe) && watermark == null && crop == null) {
      VipsImage same = vips.operation("copy").set("in", roll).image();
      same.set(PAGE_HEIGHT, frameHeight);
      return same;
    }
    List<Stage> stages = stages();
    VipsImage[] made = new VipsImage[frames];
    try {
      for (int i = 0; i < frames; i++) {
        try (PipelineContext frame =
            new PipelineContext(vips, recipe, upright, output, watermark)) {
          frame.replace(
              crop == null
                  ? vips.extractArea(roll, 0, i * frameHeight, roll.width(), frameHeight)
                  : vips.extractArea(
                      roll, crop.x, i * frameHeight + crop.y, crop.width, crop.height));
          for (Stage stage : stages) {
            stage.apply(frame);
          }
          made[i] = vips.operation("copy").set("in", frame.image()).image();
        }
      }
      try (VipsImage joined =
          vips.operation("arrayjoin").set("in", made).set("across", 1).image()) {
        VipsImage result = vips.operation("copy").set("in", joined).image();
        result.set(PAGE_HEIGHT, made[0].height());
        return result;
      }
    } finally {
      for (VipsImage image : made) {
        if (image != null) {
          image.close();
        }
      }
    }
  }

  /**
   * The stages one frame takes, in {@link VipsPipeline}'s order, with the crop found once ({@link
   * FirstFrameCrop}); greyscale is {@link GeometryStage}'s, as a still's.
   */
  private static List<Stage> stages() {
    return List.of(
        new NormaliseStage(),
        new ResizeStage(),
        new BackgroundStage(),
        new FirstFrameCrop(),
        new CanvasStage(),
        new GeometryStage(),
        new EffectsStage(),
        new PadStage(),
        new WatermarkStage());
  }
}
