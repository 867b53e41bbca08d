package dev.derive.worker.image;

import java.awt.AlphaComposite;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;

/**
 * The {@value ImageRecipe#PAD} operation: a border of {@code top}, {@code right}, {@code bottom}
 * and {@code left} pixels around the finished image (after resize, geometry and effects, as
 * imgproxy's {@code padding} and sharp's {@code extend}).
 */
record Padding(int top, int right, int bottom, int left) {
  /** Width of an image of {@code width} pixels with the border. */
  int width(int width) {
    return left + width + right;
  }

  /** Height of an image of {@code height} pixels with the border. */
  int height(int height) {
    return top + height + bottom;
  }

  /**
   * {@code image} inside the border, filled with {@code colour}. The result has alpha when {@code
   * image} has, or when {@code keepAlpha} (the output format keeps it) and {@code colour} is not
   * opaque; otherwise {@code colour} is flattened onto white.
   */
  BufferedImage apply(BufferedImage image, Color colour, boolean keepAlpha) {
    boolean alpha = image.getColorModel().hasAlpha() || (keepAlpha && colour.getAlpha() < 0xFF);
    int width = width(image.getWidth());
    int height = height(image.getHeight());
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
      g.setColor(colour);
      g.fillRect(0, 0, width, height);
      g.setComposite(AlphaComposite.Src);
      g.drawImage(image, left, top, null);
    } finally {
      g.dispose();
    }
    return out;
  }
}
