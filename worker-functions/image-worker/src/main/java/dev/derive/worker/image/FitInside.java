package dev.derive.worker.image;

import java.awt.Dimension;

/**
 * Resize fit {@code inside} (sharp's meaning): keep the aspect ratio and make the image as large as
 * possible while both sides stay within the box. A missing side of the box does not constrain.
 *
 * @param width box width in pixels, or {@code null} for no limit
 * @param height box height in pixels, or {@code null} for no limit
 * @param withoutEnlargement never scale up an image already inside the box
 */
public record FitInside(Integer width, Integer height, boolean withoutEnlargement) {
  public FitInside {
    if (width == null && height == null) {
      throw new IllegalArgumentException("a box needs a width or a height");
    }
  }

  /**
   * The size, in pixels, that an image of {@code sourceWidth} x {@code sourceHeight} pixels gets.
   * The constraining side matches the box exactly; the other is rounded to the nearest pixel and is
   * at least 1.
   */
  public Dimension apply(int sourceWidth, int sourceHeight) {
    double scaleX = width == null ? Double.POSITIVE_INFINITY : (double) width / sourceWidth;
    double scaleY = height == null ? Double.POSITIVE_INFINITY : (double) height / sourceHeight;
    double scale = Math.min(scaleX, scaleY);
    if (withoutEnlargement && scale >= 1) {
      return new Dimension(sourceWidth, sourceHeight);
    }
    if (scaleX <= scaleY) {
      return new Dimension(width, side(sourceHeight * scale, height));
    }
    return new Dimension(side(sourceWidth * scale, width), height);
  }

  private static int side(double exact, Integer limit) {
    long rounded = Math.max(1, Math.round(exact));
    return (int) (limit == null ? rounded : Math.min(rounded, limit));
  }
}
