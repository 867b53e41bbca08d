package dev.derive.worker.pdf;

import java.awt.image.BufferedImage;

/** How much of a rendered page is ink, for tests that must tell a drawn page from a blank one. */
final class Ink {
  private Ink() {}

  /**
   * Mean darkness of {@code image}, 0 (all white) to 1 (all black): the mean of 1 - luminance, so a
   * half-grey pixel counts half.
   */
  static double coverage(BufferedImage image) {
    return coverage(image, 0, 0, image.getWidth(), image.getHeight());
  }

  /** Mean darkness of the {@code width} x {@code height} region at ({@code x}, {@code y}). */
  static double coverage(BufferedImage image, int x, int y, int width, int height) {
    double ink = 0;
    for (int row = y; row < y + height; row++) {
      for (int column = x; column < x + width; column++) {
        int rgb = image.getRGB(column, row);
        double luminance =
            0.2126 * ((rgb >> 16) & 0xFF) + 0.7152 * ((rgb >> 8) & 0xFF) + 0.0722 * (rgb & 0xFF);
        ink += 1 - luminance / 255;
      }
    }
    return ink / ((double) width * height);
  }

  /**
   * Share of the pixels of a 1-bit image that are black (value 0 in its raster, as PDFBox decodes).
   */
  static double blackShare(BufferedImage bilevel) {
    long black = 0;
    var raster = bilevel.getRaster();
    for (int y = 0; y < bilevel.getHeight(); y++) {
      for (int x = 0; x < bilevel.getWidth(); x++) {
        if (raster.getSample(x, y, 0) == 0) {
          black++;
        }
      }
    }
    return (double) black / ((double) bilevel.getWidth() * bilevel.getHeight());
  }
}
