package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Rectangle;
import java.util.Locale;

/**
 * The {@value ImageRecipe#CROP} operation: a region of the upright image (after EXIF orientation,
 * before resize), either a box at {@code left}, {@code top} or a {@code width} x {@code height}
 * region placed by a gravity (sharp's names, as the image declaration lists them; centring drops
 * the odd pixel at the end, as {@link Canvas} does).
 *
 * @param left left edge in pixels, or {@code null} to place the region by {@code gravity}
 * @param top top edge in pixels, or {@code null} to place the region by {@code gravity}
 * @param width region width in pixels, at least 1
 * @param height region height in pixels, at least 1
 * @param gravity a compass point ({@code north}, {@code southeast} …) or {@value #CENTRE}; ignored
 *     for a box
 */
record CropRegion(Integer left, Integer top, int width, int height, String gravity) {
  /** The gravity of a region placed by none: the centre. */
  static final String CENTRE = "centre";

  /**
   * The region on an upright image of {@code imageWidth} x {@code imageHeight} pixels.
   *
   * @throws PermanentStepFailure {@code invalid-step} if the region does not lie inside the image
   */
  Rectangle on(int imageWidth, int imageHeight) {
    int x;
    int y;
    if (left != null) {
      x = left;
      y = top;
    } else {
      String g = gravity.toLowerCase(Locale.ROOT);
      x =
          g.endsWith("west")
              ? 0
              : g.endsWith("east") ? imageWidth - width : (imageWidth - width) / 2;
      y =
          g.startsWith("north")
              ? 0
              : g.startsWith("south") ? imageHeight - height : (imageHeight - height) / 2;
    }
    if (x < 0 || y < 0 || (long) x + width > imageWidth || (long) y + height > imageHeight) {
      throw new PermanentStepFailure(
          StepErrorTypes.INVALID_STEP,
          "crop region "
              + width
              + "x"
              + height
              + (left != null ? " at left " + left + ", top " + top : " (gravity " + gravity + ")")
              + " does not fit inside the upright image of "
              + imageWidth
              + "x"
              + imageHeight
              + " pixels");
    }
    return new Rectangle(x, y, width, height);
  }
}
