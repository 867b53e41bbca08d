package dev.derive.worker.image;

import dev.derive.worker.runtime.PermanentStepFailure;

/**
 * Where a step's picture goes: the box placed on the size the caller sees (upright, trimmed and
 * cropped, then rotated), and the same placement before the rotation, where resampling and cropping
 * or padding happen.
 *
 * @param shown the placement as the caller sees it (after the rotation)
 * @param upright the placement before the rotation
 * @param outputPixels the largest of the scaled, output and padded sizes, in pixels
 */
record Layout(Placement shown, Placement upright, long outputPixels) {
  /**
   * The layout of {@code recipe} for a {@code width} x {@code height} upright (trimmed, cropped)
   * image.
   *
   * @throws PermanentStepFailure {@code output-too-large} when the scaled, output or padded size is
   *     over {@code maxPixels}
   */
  static Layout of(ImageRecipe recipe, int width, int height, long maxPixels) {
    boolean turned = recipe.rotationSwapsAxes();
    int shownWidth = turned ? height : width;
    int shownHeight = turned ? width : height;
    Placement shown =
        recipe.box() == null
            ? Placement.unchanged(shownWidth, shownHeight)
            : recipe.box().place(shownWidth, shownHeight);
    PixelLimit.checkOutput(shown.scaledWidth(), shown.scaledHeight(), maxPixels);
    PixelLimit.checkOutput(shown.width(), shown.height(), maxPixels);
    Padding pad = recipe.pad();
    long paddedPixels = 0;
    if (pad != null) {
      PixelLimit.checkOutput(pad.width(shown.width()), pad.height(shown.height()), maxPixels);
      paddedPixels = (long) pad.width(shown.width()) * pad.height(shown.height());
    }
    Placement upright = turned ? shown.transposed() : shown;
    long outputPixels =
        Math.max(
            Math.max(
                (long) upright.scaledWidth() * upright.scaledHeight(),
                (long) upright.width() * upright.height()),
            paddedPixels);
    return new Layout(shown, upright, outputPixels);
  }

  /** The work a memory refusal names: decoding {@code source} and making the shown image. */
  String work(ImageSource source) {
    return "decoding "
        + source.describe()
        + " and making a "
        + shown.width()
        + "x"
        + shown.height()
        + " image of it";
  }
}
