package dev.derive.worker.image;

import java.awt.Rectangle;
import java.awt.image.BufferedImage;

/**
 * The EXIF/TIFF {@code Orientation} tag (0x0112; EXIF 2.32 and TIFF 6.0, values 1 to 8): how the
 * stored pixels must be flipped or rotated to show the image upright. {@link #apply} performs that
 * transformation exactly, pixel for pixel; {@link #toStored} finds where a region of the upright
 * image lies in the stored one.
 */
public enum Orientation {
  /** 1: stored upright. */
  TOP_LEFT(1),
  /** 2: mirrored horizontally. */
  TOP_RIGHT(2),
  /** 3: rotated by 180 degrees. */
  BOTTOM_RIGHT(3),
  /** 4: mirrored vertically. */
  BOTTOM_LEFT(4),
  /** 5: transposed (mirrored across the top-left to bottom-right diagonal). */
  LEFT_TOP(5),
  /** 6: must be rotated 90 degrees clockwise to show upright. */
  RIGHT_TOP(6),
  /** 7: transversed (mirrored across the top-right to bottom-left diagonal). */
  RIGHT_BOTTOM(7),
  /** 8: must be rotated 90 degrees counter-clockwise to show upright. */
  LEFT_BOTTOM(8);

  private final int tag;

  Orientation(int tag) {
    this.tag = tag;
  }

  /** The tag value, 1 to 8. */
  public int tag() {
    return tag;
  }

  /** The orientation with tag value {@code tag}; values outside 1..8 mean upright (as libexif). */
  public static Orientation ofTag(int tag) {
    for (Orientation o : values()) {
      if (o.tag == tag) {
        return o;
      }
    }
    return TOP_LEFT;
  }

  /** Whether showing the image upright swaps its width and height (values 5 to 8). */
  public boolean swapsAxes() {
    return tag >= 5;
  }

  /**
   * The rectangle of the stored image that {@link #apply} turns into {@code upright}, a rectangle
   * of the upright image, for a stored image of {@code storedWidth} x {@code storedHeight} pixels.
   */
  public Rectangle toStored(Rectangle upright, int storedWidth, int storedHeight) {
    int[] a = storedPoint(upright.x, upright.y, storedWidth, storedHeight);
    int[] b =
        storedPoint(
            upright.x + upright.width - 1,
            upright.y + upright.height - 1,
            storedWidth,
            storedHeight);
    int x = Math.min(a[0], b[0]);
    int y = Math.min(a[1], b[1]);
    return new Rectangle(x, y, Math.abs(a[0] - b[0]) + 1, Math.abs(a[1] - b[1]) + 1);
  }

  /** The stored pixel {@link #apply} moves to upright pixel ({@code tx}, {@code ty}). */
  private int[] storedPoint(int tx, int ty, int w, int h) {
    return switch (this) {
      case TOP_LEFT -> new int[] {tx, ty};
      case TOP_RIGHT -> new int[] {w - 1 - tx, ty};
      case BOTTOM_RIGHT -> new int[] {w - 1 - tx, h - 1 - ty};
      case BOTTOM_LEFT -> new int[] {tx, h - 1 - ty};
      case LEFT_TOP -> new int[] {ty, tx};
      case RIGHT_TOP -> new int[] {ty, h - 1 - tx};
      case RIGHT_BOTTOM -> new int[] {w - 1 - ty, h - 1 - tx};
      case LEFT_BOTTOM -> new int[] {w - 1 - ty, tx};
    };
  }

  /**
   * Returns {@code stored} turned upright. Returns {@code stored} itself for {@link #TOP_LEFT};
   * otherwise a new image of type {@code TYPE_INT_ARGB} if {@code stored} has alpha, else {@code
   * TYPE_INT_RGB}.
   */
  public BufferedImage apply(BufferedImage stored) {
    if (this == TOP_LEFT) {
      return stored;
    }
    int w = stored.getWidth();
    int h = stored.getHeight();
    int[] source = stored.getRGB(0, 0, w, h, null, 0, w);
    int outW = swapsAxes() ? h : w;
    int outH = swapsAxes() ? w : h;
    int[] target = new int[source.length];
    for (int y = 0; y < h; y++) {
      int row = y * w;
      for (int x = 0; x < w; x++) {
        int tx;
        int ty;
        switch (this) {
          case TOP_RIGHT -> {
            tx = w - 1 - x;
            ty = y;
          }
          case BOTTOM_RIGHT -> {
            tx = w - 1 - x;
            ty = h - 1 - y;
          }
          case BOTTOM_LEFT -> {
            tx = x;
            ty = h - 1 - y;
          }
          case LEFT_TOP -> {
            tx = y;
            ty = x;
          }
          case RIGHT_TOP -> {
            tx = h - 1 - y;
            ty = x;
          }
          case RIGHT_BOTTOM -> {
            tx = h - 1 - y;
            ty = w - 1 - x;
          }
          case LEFT_BOTTOM -> {
            tx = y;
            ty = w - 1 - x;
          }
          default -> throw new IllegalStateException(name());
        }
        target[ty * outW + tx] = source[row + x];
      }
    }
    boolean alpha = stored.getColorModel().hasAlpha();
    BufferedImage upright =
        new BufferedImage(
            outW, outH, alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
    upright.setRGB(0, 0, outW, outH, target, 0, outW);
    return upright;
  }
}
