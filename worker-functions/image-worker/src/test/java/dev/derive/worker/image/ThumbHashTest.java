package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * ThumbHash bytes against the reference encoder's: each expected value was made by npm {@code
 * thumbhash} 0.1.1's {@code rgbaToThumbHash} on the same pixels ({@link #picture}), so a
 * placeholder Derive makes decodes in every ThumbHash decoder as the reference's does.
 */
class ThumbHashTest {
  /** x * 8, y * 10, x * y * 3, each mod 256; with alpha, the left 16 columns fade in (x * 16). */
  private static int[] picture(int width, int height, boolean alpha) {
    int[] argb = new int[width * height];
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        int a = alpha && x < 16 ? x * 16 : 255;
        argb[y * width + x] =
            a << 24 | (x * 8 & 0xFF) << 16 | (y * 10 & 0xFF) << 8 | (x * y * 3) % 256;
      }
    }
    return argb;
  }

  private static String hash(int width, int height, boolean alpha) {
    return Base64.getEncoder()
        .encodeToString(ThumbHash.encode(width, height, picture(width, height, alpha)));
  }

  @Test
  void anOpaqueLandscapeMatchesTheReferenceEncoder() {
    assertThat(hash(32, 24, false)).isEqualTo("HRgOJZpgdndwd4h2iGiHh8CRDPeI");
  }

  @Test
  void aPictureWithAlphaMatchesTheReferenceEncoder() {
    assertThat(hash(32, 24, true)).isEqualTo("YEiKHJI7o4iQiIZoCA3Lsl8IdIiHeIh4Bw==");
  }

  @Test
  void anOpaquePortraitMatchesTheReferenceEncoder() {
    assertThat(hash(20, 30, false)).isEqualTo("mLcJHRBgZnGHGIeYiIOYWPW2BOf4");
  }

  @Test
  void theLargestAllowedPictureWithAlphaMatchesTheReferenceEncoder() {
    assertThat(hash(100, 100, true)).isEqualTo("3weCDQQepnSBiIQISKWAUfrHACGIh4iIiA==");
  }

  @Test
  void aThinStripWithAlphaMatchesTheReferenceEncoder() {
    // 7 rows of 64: the short side gets one lightness term, the long side five
    assertThat(hash(64, 7, true)).isEqualTo("VteGIYYtpJCAiITGjh/+hhBDeIeIh3c=");
  }

  @Test
  void oneBlackPixelMatchesTheReferenceEncoder() {
    assertThat(hash(1, 1, false)).isEqualTo("AAgCBwAAAAAAAAAAAAAAAAAAAAAAAAAA");
  }

  @Test
  void noiseWithScatteredAlphaMatchesTheReferenceEncoder() {
    // a linear congruential generator's bytes; every third pixel takes an alpha of its own
    int width = 47;
    int height = 53;
    int[] argb = new int[width * height];
    int state = 12345;
    for (int i = 0; i < argb.length; i++) {
      state = state * 1103515245 + 12345;
      int alpha = i % 3 == 0 ? state & 0xFF : 255;
      argb[i] = alpha << 24 | state >>> 8;
    }
    assertThat(Base64.getEncoder().encodeToString(ThumbHash.encode(width, height, argb)))
        .isEqualTo("4PeBBAIMDE/MRZZHd+P5hZD32YaofItYBw==");
  }

  @Test
  void moreThan100PixelsASideIsRefused() {
    assertThatThrownBy(() -> ThumbHash.encode(101, 10, new int[1010]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
