package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import java.awt.Color;
import java.awt.Rectangle;
import java.util.Map;

/**
 * The {@value ImageRecipe#TRIM} operation: the region of the upright image inside its uniform
 * border, found by libvips' {@code find_trim} (imgproxy's {@code trim}, sharp's {@code trim}). The
 * border's colour is {@code background}, else the top-left pixel's (as imgproxy); a pixel belongs
 * to it when no band differs from it by more than {@code threshold}. An image with alpha is judged
 * flattened onto that colour, so a clear border is trimmed too.
 *
 * @param threshold largest difference of a band, 0..255, still counted as border
 * @param background the border's colour, or {@code null} for the top-left pixel's
 */
record Trim(int threshold, Color background) {
  /**
   * The region of {@code upright} (8-bit sRGB, with or without alpha) inside the border; all of it
   * when the image is all border (as imgproxy and libvips leave such an image alone).
   */
  Rectangle on(Vips vips, VipsImage upright) {
    double[] colour;
    if (background != null) {
      colour = new double[] {background.getRed(), background.getGreen(), background.getBlue()};
    } else {
      try (VipsImage corner = vips.extractArea(upright, 0, 0, 1, 1)) {
        byte[] pixel = corner.bytes();
        colour = new double[] {pixel[0] & 0xFF, pixel[1] & 0xFF, pixel[2] & 0xFF};
      }
    }
    Map<String, Object> box =
        vips.operation("find_trim")
            .set("in", upright)
            .set("threshold", (double) threshold)
            .set("background", colour)
            .run("left", "top", "width", "height");
    int width = (Integer) box.get("width");
    int height = (Integer) box.get("height");
    if (width <= 0 || height <= 0) {
      return new Rectangle(0, 0, upright.width(), upright.height());
    }
    return new Rectangle((Integer) box.get("left"), (Integer) box.get("top"), width, height);
  }
}
