package dev.derive.worker.image;

import java.util.Locale;
import java.util.Optional;

/**
 * The resize fit modes, with sharp's meanings (https://sharp.pixelplumbing.com/api-resize; the
 * scale rule follows sharp's {@code ResolveShrink}). Each mode computes a {@link Placement}: the
 * size the image is resampled to and the size of the output it is centred on (cropped or padded).
 *
 * <p>With a missing side of the box, every mode except {@link #FILL} scales both sides by the given
 * side's factor, and the missing side of the output is the scaled side; {@link #FILL} keeps the
 * source size on the missing side. With {@code withoutEnlargement}, no side is scaled up: for
 * {@link #COVER} and {@link #FILL} an image smaller than the box then gives an output smaller than
 * the box (as sharp), while {@link #CONTAIN} still pads to the exact box.
 */
public enum Fit {
  /** Keep the aspect ratio, cover both sides of the box, crop the overflow around the centre. */
  COVER,
  /** Keep the aspect ratio, fit inside the box, pad to the exact box with the background. */
  CONTAIN,
  /** Ignore the aspect ratio: stretch to exactly the box. */
  FILL,
  /** Keep the aspect ratio, as large as possible with both sides within the box. */
  INSIDE,
  /** Keep the aspect ratio, as small as possible with both sides at least the box; no crop. */
  OUTSIDE;

  /** The name used in requests and steps, e.g. {@code cover}. */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The mode called {@code value} ({@code cover}, {@code contain}, ...), if there is one. */
  public static Optional<Fit> named(String value) {
    for (Fit fit : values()) {
      if (fit.value().equals(value)) {
        return Optional.of(fit);
      }
    }
    return Optional.empty();
  }

  /**
   * Where an image of {@code sourceWidth} x {@code sourceHeight} pixels goes in a box of {@code
   * boxWidth} x {@code boxHeight} pixels. Scaled sides are rounded to the nearest pixel and are at
   * least 1.
   *
   * @param boxWidth box width in pixels, or {@code null} for none
   * @param boxHeight box height in pixels, or {@code null} for none
   * @param withoutEnlargement never scale a side up
   * @throws IllegalArgumentException if both box sides are missing
   */
  public Placement place(
      int sourceWidth,
      int sourceHeight,
      Integer boxWidth,
      Integer boxHeight,
      boolean withoutEnlargement) {
    if (boxWidth == null && boxHeight == null) {
      throw new IllegalArgumentException("a box needs a width or a height");
    }
    double scaleX = boxWidth == null ? Double.NaN : (double) boxWidth / sourceWidth;
    double scaleY = boxHeight == null ? Double.NaN : (double) boxHeight / sourceHeight;
    if (boxWidth == null) {
      scaleX = this == FILL ? 1 : scaleY;
    } else if (boxHeight == null) {
      scaleY = this == FILL ? 1 : scaleX;
    } else {
      switch (this) {
        case COVER, OUTSIDE -> scaleX = scaleY = Math.max(scaleX, scaleY);
        case CONTAIN, INSIDE -> scaleX = scaleY = Math.min(scaleX, scaleY);
        case FILL -> {}
      }
    }
    if (withoutEnlargement) {
      scaleX = Math.min(1, scaleX);
      scaleY = Math.min(1, scaleY);
    }
    int scaledWidth = side(sourceWidth * scaleX);
    int scaledHeight = side(sourceHeight * scaleY);
    return new Placement(
        scaledWidth,
        scaledHeight,
        outputSide(scaledWidth, boxWidth),
        outputSide(scaledHeight, boxHeight));
  }

  private int outputSide(int scaled, Integer box) {
    if (box == null) {
      return scaled;
    }
    return switch (this) {
      case COVER -> Math.min(scaled, box);
      case CONTAIN -> box;
      case FILL, INSIDE, OUTSIDE -> scaled;
    };
  }

  /** Rounds to the nearest pixel, at least 1; saturates at {@code Integer.MAX_VALUE}. */
  private static int side(double exact) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, Math.round(exact)));
  }
}
