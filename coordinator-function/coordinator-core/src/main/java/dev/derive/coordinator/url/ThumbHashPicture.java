package dev.derive.coordinator.url;

/**
 * The small picture a ThumbHash stands for (Evan Wallace's format,
 * https://evanw.github.io/thumbhash/): at most 32 pixels a side, in the hash's aspect ratio,
 * decoded as the reference's {@code thumbHashToRGBA} does ({@code ThumbHashPictureTest} compares
 * pixels with npm {@code thumbhash}'s). The encoder is the image worker's {@code info} derivative.
 *
 * @param width pixels
 * @param height pixels
 * @param rgba non-premultiplied 8-bit red, green, blue, alpha, row after row
 */
public record ThumbHashPicture(int width, int height, byte[] rgba) {

  /**
   * Decodes {@code hash}.
   *
   * @throws IllegalArgumentException if it is too short for what its header announces
   */
  public static ThumbHashPicture decode(byte[] hash) {
    if (hash.length < 5) {
      throw new IllegalArgumentException("a ThumbHash has at least 5 bytes, got " + hash.length);
    }
    int header24 = u(hash, 0) | u(hash, 1) << 8 | u(hash, 2) << 16;
    int header16 = u(hash, 3) | u(hash, 4) << 8;
    double lDc = (header24 & 63) / 63.0;
    double pDc = ((header24 >> 6) & 63) / 31.5 - 1;
    double qDc = ((header24 >> 12) & 63) / 31.5 - 1;
    double lScale = ((header24 >> 18) & 31) / 31.0;
    boolean alpha = (header24 >> 23) != 0;
    double pScale = ((header16 >> 3) & 63) / 63.0;
    double qScale = ((header16 >> 9) & 63) / 63.0;
    boolean landscape = (header16 >> 15) != 0;
    int lx = Math.max(3, landscape ? (alpha ? 5 : 7) : header16 & 7);
    int ly = Math.max(3, landscape ? header16 & 7 : (alpha ? 5 : 7));
    if (alpha && hash.length < 6) {
      throw new IllegalArgumentException("a ThumbHash with alpha has at least 6 bytes");
    }
    double aDc = alpha ? (u(hash, 5) & 15) / 15.0 : 1;
    double aScale = alpha ? (u(hash, 5) >> 4) / 15.0 : 0;

    Nibbles nibbles = new Nibbles(hash, alpha ? 6 : 5);
    double[] lAc = nibbles.channel(lx, ly, lScale);
    double[] pAc = nibbles.channel(3, 3, pScale * 1.25);
    double[] qAc = nibbles.channel(3, 3, qScale * 1.25);
    double[] aAc = alpha ? nibbles.channel(5, 5, aScale) : null;

    double ratio = approximateAspectRatio(hash);
    int w = (int) Math.round(ratio > 1 ? 32 : 32 * ratio);
    int h = (int) Math.round(ratio > 1 ? 32 / ratio : 32);
    byte[] rgba = new byte[w * h * 4];
    double[] fx = new double[Math.max(lx, alpha ? 5 : 3)];
    double[] fy = new double[Math.max(ly, alpha ? 5 : 3)];
    for (int y = 0, i = 0; y < h; y++) {
      for (int x = 0; x < w; x++, i += 4) {
        double l = lDc;
        double p = pDc;
        double q = qDc;
        double a = aDc;
        for (int cx = 0; cx < fx.length; cx++) {
          fx[cx] = Math.cos(Math.PI / w * (x + 0.5) * cx);
        }
        for (int cy = 0; cy < fy.length; cy++) {
          fy[cy] = Math.cos(Math.PI / h * (y + 0.5) * cy);
        }
        for (int cy = 0, j = 0; cy < ly; cy++) {
          double fy2 = fy[cy] * 2;
          for (int cx = cy > 0 ? 0 : 1; cx * ly < lx * (ly - cy); cx++, j++) {
            l += lAc[j] * fx[cx] * fy2;
          }
        }
        for (int cy = 0, j = 0; cy < 3; cy++) {
          double fy2 = fy[cy] * 2;
          for (int cx = cy > 0 ? 0 : 1; cx < 3 - cy; cx++, j++) {
            double f = fx[cx] * fy2;
            p += pAc[j] * f;
            q += qAc[j] * f;
          }
        }
        if (alpha) {
          for (int cy = 0, j = 0; cy < 5; cy++) {
            double fy2 = fy[cy] * 2;
            for (int cx = cy > 0 ? 0 : 1; cx < 5 - cy; cx++, j++) {
              a += aAc[j] * fx[cx] * fy2;
            }
          }
        }
        double b = l - 2.0 / 3 * p;
        double r = (3 * l - b + q) / 2;
        double g = r - q;
        rgba[i] = channel(r);
        rgba[i + 1] = channel(g);
        rgba[i + 2] = channel(b);
        rgba[i + 3] = channel(a);
      }
    }
    return new ThumbHashPicture(w, h, rgba);
  }

  /** Width over height, from the header's term counts. */
  private static double approximateAspectRatio(byte[] hash) {
    int header = u(hash, 3);
    boolean alpha = (u(hash, 2) & 0x80) != 0;
    boolean landscape = (u(hash, 4) & 0x80) != 0;
    int lx = landscape ? (alpha ? 5 : 7) : header & 7;
    int ly = landscape ? header & 7 : (alpha ? 5 : 7);
    if (lx == 0 || ly == 0) {
      throw new IllegalArgumentException("a ThumbHash's header names no terms");
    }
    return (double) lx / ly;
  }

  /** A 0..1 value as a byte, truncated as the reference's {@code Uint8Array} stores it. */
  private static byte channel(double value) {
    return (byte) (int) Math.max(0, 255 * Math.min(1, value));
  }

  private static int u(byte[] bytes, int i) {
    return bytes[i] & 0xFF;
  }

  /** The AC terms: 4-bit nibbles, low first, read channel after channel. */
  private static final class Nibbles {
    private final byte[] hash;
    private final int start;
    private int index;

    Nibbles(byte[] hash, int start) {
      this.hash = hash;
      this.start = start;
    }

    double[] channel(int nx, int ny, double scale) {
      java.util.List<Double> ac = new java.util.ArrayList<>();
      for (int cy = 0; cy < ny; cy++) {
        for (int cx = cy > 0 ? 0 : 1; cx * ny < nx * (ny - cy); cx++) {
          int at = start + (index >> 1);
          if (at >= hash.length) {
            throw new IllegalArgumentException("the ThumbHash ends before its terms");
          }
          int nibble = (u(hash, at) >> ((index++ & 1) << 2)) & 15;
          ac.add((nibble / 7.5 - 1) * scale);
        }
      }
      return ac.stream().mapToDouble(Double::doubleValue).toArray();
    }
  }
}
