package dev.derive.worker.image;

import java.awt.image.BufferedImage;

/**
 * Tone-maps PQ-coded HDR pixels (SMPTE ST 2084, as in HDR AVIF) to 8-bit sRGB, as a browser shows
 * such an image on an SDR screen. Shown as plain sRGB values the picture looks dim and flat: PQ
 * puts diffuse white at about 58% of the code range and spends the rest on highlights.
 *
 * <p>Per pixel: the PQ EOTF gives absolute luminance in cd/m², divided by the BT.2408 reference
 * white of 203 cd/m² (so diffuse white becomes 1.0); the primaries are converted to BT.709/sRGB
 * (Display P3 and BT.2020 matrices, D65 both sides); then the largest component {@code m} is
 * compressed, hue kept: unchanged up to {@value #KNEE}, above it {@code k + (1 - k)(1 - e^(-(m -
 * k)/(1 - k)))}, a curve that meets the linear part with the same slope and approaches 1 (so
 * highlights roll off instead of clipping); negative (out of gamut) components clip to 0, and the
 * sRGB transfer curve encodes the result.
 */
final class HdrToneMap {
  /** BT.2408's HDR reference white (diffuse white, graphics white), cd/m². */
  static final double REFERENCE_WHITE_NITS = 203;

  /** Relative luminance up to which the mapping is the identity. */
  static final double KNEE = 0.75;

  private static final double M1 = 2610.0 / 16384;
  private static final double M2 = 2523.0 / 4096 * 128;
  private static final double C1 = 3424.0 / 4096;
  private static final double C2 = 2413.0 / 4096 * 32;
  private static final double C3 = 2392.0 / 4096 * 32;

  /** Display P3 to sRGB, linear light, D65 (from the primaries' chromaticities). */
  private static final double[] P3_TO_SRGB = {
    1.2249401, -0.2249404, 0.0, -0.0420569, 1.0420571, 0.0, -0.0196376, -0.0786361, 1.0982735
  };

  /** BT.2020 to BT.709/sRGB, linear light (ITU-R BT.2087). */
  private static final double[] BT2020_TO_SRGB = {
    1.6605, -0.5876, -0.0728, -0.1246, 1.1329, -0.0083, -0.0182, -0.1006, 1.1187
  };

  private static final double[] IDENTITY = {1, 0, 0, 0, 1, 0, 0, 0, 1};

  /** sRGB encoding of linear values 0..1 in 4096 steps. */
  private static final int[] SRGB_ENCODE = new int[4097];

  static {
    for (int i = 0; i <= 4096; i++) {
      double v = i / 4096.0;
      double e = v <= 0.0031308 ? 12.92 * v : 1.055 * Math.pow(v, 1 / 2.4) - 0.055;
      SRGB_ENCODE[i] = (int) Math.round(Math.min(1, Math.max(0, e)) * 255);
    }
  }

  private HdrToneMap() {}

  /**
   * Maps band-interleaved PQ samples to an sRGB image.
   *
   * @param samples {@code width x height x bands} unsigned samples, row after row (RGB or RGBA)
   * @param maxValue the largest sample value (65535 for 16-bit, 255 for 8-bit)
   * @param primaries H.273 colour primaries (1 BT.709, 9 BT.2020, 12 Display P3; others are taken
   *     as BT.709)
   * @return {@code TYPE_INT_ARGB} with 4 bands, else {@code TYPE_INT_RGB}
   */
  static BufferedImage toSdr(
      int[] samples, int width, int height, int bands, int maxValue, int primaries) {
    if (bands != 3 && bands != 4) {
      throw new IllegalArgumentException("expected RGB or RGBA samples, got " + bands + " bands");
    }
    double[] matrix =
        switch (primaries) {
          case Sniffer.Nclx.PRIMARIES_P3 -> P3_TO_SRGB;
          case Sniffer.Nclx.PRIMARIES_BT2020 -> BT2020_TO_SRGB;
          default -> IDENTITY;
        };
    double[] linear = new double[maxValue + 1];
    for (int v = 0; v <= maxValue; v++) {
      linear[v] = pqToNits((double) v / maxValue) / REFERENCE_WHITE_NITS;
    }
    boolean alpha = bands == 4;
    BufferedImage out =
        new BufferedImage(
            width, height, alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
    int[] row = new int[width];
    int i = 0;
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++, i += bands) {
        double r0 = linear[samples[i]];
        double g0 = linear[samples[i + 1]];
        double b0 = linear[samples[i + 2]];
        double r = Math.max(0, matrix[0] * r0 + matrix[1] * g0 + matrix[2] * b0);
        double g = Math.max(0, matrix[3] * r0 + matrix[4] * g0 + matrix[5] * b0);
        double b = Math.max(0, matrix[6] * r0 + matrix[7] * g0 + matrix[8] * b0);
        double m = Math.max(r, Math.max(g, b));
        if (m > KNEE) {
          double scale = compress(m) / m;
          r *= scale;
          g *= scale;
          b *= scale;
        }
        int a = alpha ? (int) Math.round(samples[i + 3] * 255.0 / maxValue) : 0xFF;
        row[x] = a << 24 | encode(r) << 16 | encode(g) << 8 | encode(b);
      }
      out.setRGB(0, y, width, 1, row, 0, width);
    }
    return out;
  }

  /** SMPTE ST 2084 EOTF: a PQ signal 0..1 to luminance in cd/m² (0..10000). */
  static double pqToNits(double signal) {
    double p = Math.pow(Math.max(0, signal), 1 / M2);
    return 10000 * Math.pow(Math.max(p - C1, 0) / (C2 - C3 * p), 1 / M1);
  }

  /** The highlight roll-off above {@link #KNEE}; tends to 1 as {@code m} grows. */
  static double compress(double m) {
    if (m <= KNEE) {
      return m;
    }
    return KNEE + (1 - KNEE) * (1 - Math.exp(-(m - KNEE) / (1 - KNEE)));
  }

  private static int encode(double linear) {
    return SRGB_ENCODE[(int) Math.round(Math.min(1, linear) * 4096)];
  }
}
