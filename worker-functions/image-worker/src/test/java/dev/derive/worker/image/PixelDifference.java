package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;

/** How far apart two pictures of the same size are, for tests that compare with a reference. */
final class PixelDifference {
  private PixelDifference() {}

  /** Mean absolute difference per channel (0..255) of the alpha-premultiplied colours and alpha. */
  static double premultipliedDifference(BufferedImage a, BufferedImage b) {
    assertSameSize(a, b);
    long sum = 0;
    for (int y = 0; y < a.getHeight(); y++) {
      for (int x = 0; x < a.getWidth(); x++) {
        int p = a.getRGB(x, y);
        int q = b.getRGB(x, y);
        int pa = p >>> 24;
        int qa = q >>> 24;
        sum += Math.abs(pa - qa);
        for (int shift = 0; shift <= 16; shift += 8) {
          sum += Math.abs(((p >> shift) & 0xFF) * pa / 255 - ((q >> shift) & 0xFF) * qa / 255);
        }
      }
    }
    return (double) sum / (4L * a.getWidth() * a.getHeight());
  }

  /** Mean absolute difference per channel (0..255) of two images of the same size. */
  static double meanDifference(BufferedImage a, BufferedImage b) {
    assertSameSize(a, b);
    long sum = 0;
    for (int y = 0; y < a.getHeight(); y++) {
      for (int x = 0; x < a.getWidth(); x++) {
        int p = a.getRGB(x, y);
        int q = b.getRGB(x, y);
        for (int shift = 0; shift <= 16; shift += 8) {
          sum += Math.abs(((p >> shift) & 0xFF) - ((q >> shift) & 0xFF));
        }
      }
    }
    return (double) sum / (3L * a.getWidth() * a.getHeight());
  }

  private static void assertSameSize(BufferedImage a, BufferedImage b) {
    assertThat(b.getWidth() + "x" + b.getHeight())
        .as("size of the reference")
        .isEqualTo(a.getWidth() + "x" + a.getHeight());
  }
}
