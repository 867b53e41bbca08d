package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import java.awt.Color;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
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
   * The region of {@code upright} inside the border; all of it when the image is all border (as
   * imgproxy and libvips leave such an image alone).
   */
  Rectangle on(BufferedImage upright) {
    Color colour = background != null ? background : new Color(upright.getRGB(0, 0));
    try (VipsImage in = VipsPixels.toVips(upright)) {
      Map<String, Object> box =
          Vips.shared()
              .operation("find_trim")
              .set("in", in)
              .set("threshold", (double) threshold)
              .set(
                  "background", new double[] {colour.getRed(), colour.getGreen(), colour.getBlue()})
              .run("left", "top", "width", "height");
      int width = (Integer) box.get("width");
      int height = (Integer) box.get("height");
      if (width <= 0 || height <= 0) {
        return new Rectangle(0, 0, upright.getWidth(), upright.getHeight());
      }
      return new Rectangle((Integer) box.get("left"), (Integer) box.get("top"), width, height);
    }
  }
}
