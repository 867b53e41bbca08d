package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsException;
import dev.derive.worker.libvips.VipsImage;
import java.awt.image.BufferedImage;

/**
 * Pixels between Java and libvips: a {@code BufferedImage} as an 8-bit sRGB {@link VipsImage}
 * (alpha kept), and back. Until every stage runs in libvips (docs/image-pipeline.md) a stage that
 * needs libvips on the Java path crosses here, at the output's size.
 */
final class VipsPixels {
  private VipsPixels() {}

  /** {@code image} as an 8-bit sRGB libvips image, with alpha when it has one. */
  static VipsImage toVips(BufferedImage image) {
    boolean alpha = image.getColorModel().hasAlpha();
    return Vips.shared()
        .fromPixels(samples(image, alpha), image.getWidth(), image.getHeight(), alpha ? 4 : 3);
  }

  /** The sRGB samples of {@code image}, interleaved R, G, B (and A when {@code alpha}). */
  static byte[] samples(BufferedImage image, boolean alpha) {
    int width = image.getWidth();
    int height = image.getHeight();
    int bands = alpha ? 4 : 3;
    byte[] out = new byte[width * height * bands];
    int[] row = new int[width];
    int i = 0;
    for (int y = 0; y < height; y++) {
      image.getRGB(0, y, width, 1, row, 0, width);
      for (int argb : row) {
        out[i++] = (byte) (argb >>> 16);
        out[i++] = (byte) (argb >>> 8);
        out[i++] = (byte) argb;
        if (alpha) {
          out[i++] = (byte) (argb >>> 24);
        }
      }
    }
    return out;
  }

  /** Copies an image into Java as 8-bit sRGB, with alpha if it has one. */
  static BufferedImage toJava(VipsImage image) {
    Vips vips = Vips.shared();
    VipsImage srgb =
        image.interpretation() == Vips.INTERPRETATION_SRGB
            ? null
            : vips.colourspace(image, Vips.INTERPRETATION_SRGB);
    VipsImage cast = null;
    try {
      VipsImage current = srgb != null ? srgb : image;
      if (current.format() != Vips.FORMAT_UCHAR) {
        cast = vips.cast(current, Vips.FORMAT_UCHAR);
        current = cast;
      }
      int w = current.width();
      int h = current.height();
      int bands = current.bands();
      if (bands != 3 && bands != 4) {
        throw new VipsException("unexpected " + bands + "-band sRGB image");
      }
      byte[] data = current.bytes();
      boolean alpha = bands == 4;
      BufferedImage out =
          new BufferedImage(w, h, alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
      int[] row = new int[w];
      int i = 0;
      for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++, i += bands) {
          int a = alpha ? data[i + 3] & 0xFF : 0xFF;
          row[x] =
              a << 24 | (data[i] & 0xFF) << 16 | (data[i + 1] & 0xFF) << 8 | data[i + 2] & 0xFF;
        }
        out.setRGB(0, y, w, 1, row, 0, w);
      }
      return out;
    } finally {
      if (cast != null) {
        cast.close();
      }
      if (srgb != null) {
        srgb.close();
      }
    }
  }
}
