package dev.derive.worker.image;

import com.twelvemonkeys.image.ResampleOp;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;

/** Pixel-level steps of the image pipeline: normalising the pixel layout and resampling. */
final class Pixels {
  private Pixels() {}

  /**
   * Returns {@code image} as 8-bit sRGB in {@code TYPE_INT_ARGB} (when {@code keepAlpha}) or {@code
   * TYPE_INT_RGB}, converting colour spaces, bit depths and palettes. Without {@code keepAlpha},
   * transparent pixels are flattened onto white (JPEG has no alpha channel).
   */
  static BufferedImage normalize(BufferedImage image, boolean keepAlpha) {
    int type = keepAlpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB;
    if (image.getType() == type) {
      return image;
    }
    BufferedImage out = new BufferedImage(image.getWidth(), image.getHeight(), type);
    Graphics2D g = out.createGraphics();
    try {
      if (!keepAlpha) {
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
      }
      g.drawImage(image, 0, 0, null);
    } finally {
      g.dispose();
    }
    return out;
  }

  /**
   * Resamples {@code image} to exactly {@code width} x {@code height} pixels with a Lanczos (a=3)
   * filter, which keeps detail without aliasing when downscaling.
   */
  static BufferedImage resize(BufferedImage image, int width, int height) {
    if (image.getWidth() == width && image.getHeight() == height) {
      return image;
    }
    return new ResampleOp(width, height, ResampleOp.FILTER_LANCZOS).filter(image, null);
  }

  /** A copy of {@code image} (e.g. a sub-image) with its own pixels, of the same type. */
  static BufferedImage copy(BufferedImage image) {
    int type =
        image.getColorModel().hasAlpha() ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB;
    BufferedImage out = new BufferedImage(image.getWidth(), image.getHeight(), type);
    Graphics2D g = out.createGraphics();
    try {
      g.setComposite(java.awt.AlphaComposite.Src);
      g.drawImage(image, 0, 0, null);
    } finally {
      g.dispose();
    }
    return out;
  }
}
