package dev.derive.worker.image;

/**
 * A resize operation's box: its size, how the image fits it and whether it may enlarge (the colour
 * of padding is the {@value ImageRecipe#BACKGROUND} operation's, {@link ImageRecipe#background}).
 *
 * @param width box width in pixels, or {@code null} for none
 * @param height box height in pixels, or {@code null} for none
 * @param fit how the image fits the box
 * @param withoutEnlargement never scale the image up
 * @param gravity what a cover crop keeps
 */
public record ResizeBox(
    Integer width, Integer height, Fit fit, boolean withoutEnlargement, CoverGravity gravity) {
  public ResizeBox {
    if (width == null && height == null) {
      throw new IllegalArgumentException("a box needs a width or a height");
    }
    if (fit == null) {
      throw new IllegalArgumentException("a box needs a fit");
    }
    if (gravity == null) {
      gravity = CoverGravity.CENTRED;
    }
  }

  /** Fit {@code inside}. */
  public ResizeBox(Integer width, Integer height, boolean withoutEnlargement) {
    this(width, height, Fit.INSIDE, withoutEnlargement, CoverGravity.CENTRED);
  }

  /** Where an image of {@code sourceWidth} x {@code sourceHeight} pixels goes in this box. */
  public Placement place(int sourceWidth, int sourceHeight) {
    return fit.place(sourceWidth, sourceHeight, width, height, withoutEnlargement);
  }
}
