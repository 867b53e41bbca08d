package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import java.awt.image.BufferedImage;

/** Test helper: a libvips image as a Java image, to compare with the capability's output. */
final class VipsTestImages {
  private VipsTestImages() {}

  /**
   * Copies {@code image} (converted to 8-bit sRGB first if it is not) into a {@code TYPE_INT_RGB}
   * or, with 4 bands, {@code TYPE_INT_ARGB} image.
   */
  static BufferedImage toBufferedImage(VipsImage image) {
    Vips vips = Vips.shared();
    try (VipsImage srgb = vips.colourspace(image, Vips.INTERPRETATION_SRGB);
        VipsImage bytes = vips.cast(srgb, Vips.FORMAT_UCHAR)) {
      int width = bytes.width();
      int height = bytes.height();
      int bands = bytes.bands();
      byte[] data = bytes.bytes();
      BufferedImage out =
          new BufferedImage(
              width, height, bands == 4 ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
      for (int i = 0, p = 0; i < width * height; i++, p += bands) {
        int a = bands == 4 ? data[p + 3] & 0xFF : 0xFF;
        out.setRGB(
            i % width,
            i / width,
            a << 24 | (data[p] & 0xFF) << 16 | (data[p + 1] & 0xFF) << 8 | data[p + 2] & 0xFF);
      }
      return out;
    }
  }
}
