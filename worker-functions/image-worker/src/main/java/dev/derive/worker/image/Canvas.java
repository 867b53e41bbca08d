package dev.derive.worker.image;

import java.awt.AlphaComposite;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;

/**
 * Centres an image on an output of a given size, cropping what overflows and padding the rest with
 * a background colour (sharp's centre gravity: a crop drops the odd pixel at the start, padding
 * puts it at the end).
 */
final class Canvas {
  private Canvas() {}

  /**
   * Returns {@code image} composed over {@code colour} (source over; sharp's flatten, imgproxy's
   * bg:): {@code image} itself when it has no alpha; opaque (no alpha) when {@code colour} is, else
   * as translucent as the two together.
   */
  static BufferedImage flatten(BufferedImage image, Color colour) {
    if (!image.getColorModel().hasAlpha()) {
      return image;
    }
    boolean opaque = colour.getAlpha() == 0xFF;
    BufferedImage out =
        new BufferedImage(
            image.getWidth(),
            image.getHeight(),
            opaque ? BufferedImage.TYPE_INT_RGB : BufferedImage.TYPE_INT_ARGB);
    Graphics2D g = out.createGraphics();
    try {
      g.setComposite(AlphaComposite.Src);
      g.setColor(colour);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      g.setComposite(AlphaComposite.SrcOver);
      g.drawImage(image, 0, 0, null);
    } finally {
      g.dispose();
    }
    return out;
  }

  /**
   * Returns {@code image} centred on {@code width} x {@code height} pixels; {@code image} itself
   * when it already has that size. The output has alpha iff {@code image} has: then padding is
   * {@code background} exactly, else {@code background} flattened onto white.
   */
  static BufferedImage centre(BufferedImage image, int width, int height, Color background) {
    if (image.getWidth() == width && image.getHeight() == height) {
      return image;
    }
    boolean alpha = image.getColorModel().hasAlpha();
    BufferedImage out =
        new BufferedImage(
            width, height, alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    try {
      if (alpha) {
        g.setComposite(AlphaComposite.Src);
      } else {
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
      }
      g.setColor(background);
      g.fillRect(0, 0, width, height);
      g.setComposite(AlphaComposite.Src);
      g.drawImage(image, offset(width, image.getWidth()), offset(height, image.getHeight()), null);
    } finally {
      g.dispose();
    }
    return out;
  }

  /** Position of an image side on an output side: centred, negative when the image overflows. */
  static int offset(int output, int image) {
    return output >= image ? (output - image) / 2 : -((image - output + 1) / 2);
  }
}
