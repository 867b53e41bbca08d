package dev.derive.coordinator.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class MagicNumberDetectorTest {
  private final MagicNumberDetector detector = new MagicNumberDetector();

  private static byte[] padded(byte... head) {
    return Arrays.copyOf(head, 16);
  }

  private static byte[] ascii(String text) {
    return padded(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  @Test
  void recognisesEachImageFormatItsCapabilityReads() {
    assertThat(detector.detect(padded((byte) 0xFF, (byte) 0xD8, (byte) 0xFF)))
        .hasValue("image/jpeg");
    assertThat(detector.detect(ascii("\u0089PNG\r\n\u001A\n"))).hasValue("image/png");
    assertThat(detector.detect(ascii("GIF89a"))).hasValue("image/gif");
    assertThat(detector.detect(ascii("GIF87a"))).hasValue("image/gif");
    assertThat(detector.detect(ascii("BM"))).hasValue("image/bmp");
    assertThat(detector.detect(ascii("II*\u0000"))).hasValue("image/tiff");
    assertThat(detector.detect(ascii("MM\u0000*"))).hasValue("image/tiff");
    assertThat(detector.detect(ascii("RIFF\u0000\u0000\u0000\u0000WEBP"))).hasValue("image/webp");
  }

  @Test
  void recognisesNothingElse() {
    assertThat(detector.detect(ascii("%PDF-1.7"))).isEmpty();
    assertThat(detector.detect(ascii("RIFF\u0000\u0000\u0000\u0000WAVE"))).isEmpty();
    assertThat(detector.detect(new byte[0])).isEmpty();
    assertThat(detector.detect(new byte[] {(byte) 0xFF, (byte) 0xD8})).isEmpty();
  }
}
