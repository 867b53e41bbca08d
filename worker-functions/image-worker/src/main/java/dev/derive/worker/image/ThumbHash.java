package dev.derive.worker.image;

/**
 * ThumbHash (Evan Wallace's format, https://evanw.github.io/thumbhash/): a placeholder of about 25
 * bytes holding an image's average colour, aspect ratio and a few cosine terms of its lightness,
 * its yellow-blue and red-green differences and its alpha. Encoded here from the format's
 * description (no Java library of it is on Maven Central); {@code ThumbHashTest} checks the bytes
 * against the reference encoder's (npm {@code thumbhash}) for the same pixels.
 *
 * <p>Layout: 3 bytes of lightness DC (6 bits), P and Q DC (6 bits each), lightness scale (5 bits)
 * and an alpha flag; 2 bytes of the short side's lightness term count (3 bits), P and Q scales (6
 * bits each) and a landscape flag; with alpha a byte of alpha DC and scale (4 bits each); then
 * every AC term as a 4-bit nibble, low nibble first: lightness, P, Q, alpha.
 */
final class ThumbHash {
  private ThumbHash() {}

  /** JavaScript's {@code Math.round}, which the reference uses: halves up. */
  private static int round(double value) {
    return (int) Math.floor(value + 0.5);
  }

  /**
   * The ThumbHash of an image of at most 100 x 100 pixels.
   *
   * @param argb non-premultiplied ARGB pixels, row after row
   * @throws IllegalArgumentException for a larger image
   */
  static byte[] encode(int width, int height, int[] argb) {
    if (width > 100 || height > 100 || width < 1 || height < 1) {
      throw new IllegalArgumentException(width + "x" + height + " is not within 100x100");
    }
    int n = width * height;
    double sumA = 0;
    double sumR = 0;
    double sumG = 0;
    double sumB = 0;
    for (int pixel : argb) {
      double alpha = (pixel >>> 24) / 255.0;
      sumA += alpha;
      sumR += alpha / 255 * (pixel >> 16 & 0xFF);
      sumG += alpha / 255 * (pixel >> 8 & 0xFF);
      sumB += alpha / 255 * (pixel & 0xFF);
    }
    double meanR = sumA > 0 ? sumR / sumA : sumR;
    double meanG = sumA > 0 ? sumG / sumA : sumG;
    double meanB = sumA > 0 ? sumB / sumA : sumB;
    boolean alpha = sumA < n;
    int longSide = Math.max(width, height);
    int lightnessLimit = alpha ? 5 : 7;
    int lx = Math.max(1, round((double) lightnessLimit * width / longSide));
    int ly = Math.max(1, round((double) lightnessLimit * height / longSide));

    double[] l = new double[n];
    double[] p = new double[n];
    double[] q = new double[n];
    double[] a = new double[n];
    for (int i = 0; i < n; i++) {
      double opacity = (argb[i] >>> 24) / 255.0;
      // composited over the mean colour, so clear pixels carry no colour of their own
      double r = meanR * (1 - opacity) + opacity / 255 * (argb[i] >> 16 & 0xFF);
      double g = meanG * (1 - opacity) + opacity / 255 * (argb[i] >> 8 & 0xFF);
      double b = meanB * (1 - opacity) + opacity / 255 * (argb[i] & 0xFF);
      l[i] = (r + g + b) / 3;
      p[i] = (r + g) / 2 - b;
      q[i] = r - g;
      a[i] = opacity;
    }
    Terms lightness = Terms.of(width, height, l, Math.max(3, lx), Math.max(3, ly));
    Terms yellowBlue = Terms.of(width, height, p, 3, 3);
    Terms redGreen = Terms.of(width, height, q, 3, 3);
    Terms opacity = alpha ? Terms.of(width, height, a, 5, 5) : null;

    boolean landscape = width > height;
    int header24 =
        round(63 * lightness.dc)
            | round(31.5 + 31.5 * yellowBlue.dc) << 6
            | round(31.5 + 31.5 * redGreen.dc) << 12
            | round(31 * lightness.scale) << 18
            | (alpha ? 1 << 23 : 0);
    int header16 =
        (landscape ? ly : lx)
            | round(63 * yellowBlue.scale) << 3
            | round(63 * redGreen.scale) << 9
            | (landscape ? 1 << 15 : 0);
    int start = alpha ? 6 : 5;
    int terms =
        lightness.ac.length
            + yellowBlue.ac.length
            + redGreen.ac.length
            + (alpha ? opacity.ac.length : 0);
    byte[] hash = new byte[start + (terms + 1) / 2];
    hash[0] = (byte) header24;
    hash[1] = (byte) (header24 >> 8);
    hash[2] = (byte) (header24 >> 16);
    hash[3] = (byte) header16;
    hash[4] = (byte) (header16 >> 8);
    if (alpha) {
      hash[5] = (byte) (round(15 * opacity.dc) | round(15 * opacity.scale) << 4);
    }
    int nibble = 0;
    for (Terms channel :
        alpha
            ? new Terms[] {lightness, yellowBlue, redGreen, opacity}
            : new Terms[] {lightness, yellowBlue, redGreen}) {
      for (double value : channel.ac) {
        hash[start + (nibble >> 1)] |= (byte) (round(15 * value) << ((nibble & 1) << 2));
        nibble++;
      }
    }
    return hash;
  }

  /**
   * One channel's cosine terms up to {@code nx} x {@code ny} (the triangle {@code cx * ny < nx *
   * (ny - cy)}): its DC term, and its AC terms normalised to 0..1 by their largest magnitude,
   * {@code scale}.
   */
  private record Terms(double dc, double[] ac, double scale) {
    static Terms of(int width, int height, double[] channel, int nx, int ny) {
      double dc = 0;
      double scale = 0;
      double[] ac = new double[count(nx, ny)];
      int next = 0;
      // StrictMath: fdlibm's cosine, as JavaScript engines compute it; Math.cos may differ in the
      // last bit, which turns a term that is zero up to rounding into a different nibble
      double[] fx = new double[width];
      for (int cy = 0; cy < ny; cy++) {
        for (int cx = 0; cx * ny < nx * (ny - cy); cx++) {
          for (int x = 0; x < width; x++) {
            fx[x] = StrictMath.cos(Math.PI / width * cx * (x + 0.5));
          }
          double sum = 0;
          for (int y = 0; y < height; y++) {
            double fy = StrictMath.cos(Math.PI / height * cy * (y + 0.5));
            for (int x = 0; x < width; x++) {
              sum += channel[x + y * width] * fx[x] * fy;
            }
          }
          sum /= width * height;
          if (cx == 0 && cy == 0) {
            dc = sum;
          } else {
            ac[next++] = sum;
            scale = Math.max(scale, Math.abs(sum));
          }
        }
      }
      if (scale > 0) {
        for (int i = 0; i < ac.length; i++) {
          ac[i] = 0.5 + 0.5 / scale * ac[i];
        }
      }
      return new Terms(dc, ac, scale);
    }

    private static int count(int nx, int ny) {
      int count = 0;
      for (int cy = 0; cy < ny; cy++) {
        for (int cx = cy > 0 ? 0 : 1; cx * ny < nx * (ny - cy); cx++) {
          count++;
        }
      }
      return count;
    }
  }
}
