package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The JPEG shrink-on-load factor is sharp's ({@code fastShrinkOnLoad}): the largest DCT scale the
 * box allows, so a 12 MP photo into 256 px decodes 500 x 375 pixels, not vips_thumbnail's 1000 x
 * 750.
 */
class JpegShrinkTest {
  @Test
  void theLargestFactorTheBoxAllowsHalvedWhenExact() {
    assertThat(VipsSource.jpegShrink(4000 / 256.0)).isEqualTo(8); // 15.6
    assertThat(VipsSource.jpegShrink(8.5)).isEqualTo(4); // (int) 8.5 == 8: libjpeg rounding
    assertThat(VipsSource.jpegShrink(7.9)).isEqualTo(4);
    assertThat(VipsSource.jpegShrink(4.0)).isEqualTo(2);
    assertThat(VipsSource.jpegShrink(3.0)).isEqualTo(2);
    assertThat(VipsSource.jpegShrink(2.5)).isEqualTo(1);
    assertThat(VipsSource.jpegShrink(1.9)).isEqualTo(1);
    assertThat(VipsSource.jpegShrink(1.0)).isEqualTo(1);
  }
}
