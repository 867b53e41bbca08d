package dev.derive.protocol.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TextEncodingsTest {
  private static final String HTML = "<html><body><p>Grüße, Ünïcödé</p></body></html>";

  @Test
  void utf16WithoutAByteOrderMarkIsRecognisedInBothByteOrders() {
    assertThat(TextEncodings.evident(HTML.getBytes(StandardCharsets.UTF_16LE)))
        .hasValue(StandardCharsets.UTF_16LE);
    assertThat(TextEncodings.evident(HTML.getBytes(StandardCharsets.UTF_16BE)))
        .hasValue(StandardCharsets.UTF_16BE);
  }

  @Test
  void aByteOrderMarkWins() {
    byte[] utf16 = HTML.getBytes(StandardCharsets.UTF_16); // big-endian with its mark
    assertThat(TextEncodings.evident(utf16)).hasValue(StandardCharsets.UTF_16BE);
    byte[] utf8 = ("\uFEFF" + "plain ASCII").getBytes(StandardCharsets.UTF_8);
    assertThat(TextEncodings.evident(utf8)).hasValue(StandardCharsets.UTF_8);
  }

  @Test
  void validNonAsciiUtf8IsUtf8EvenCutInTheMiddleOfACharacter() {
    byte[] utf8 = HTML.getBytes(StandardCharsets.UTF_8);
    assertThat(TextEncodings.evident(utf8)).hasValue(StandardCharsets.UTF_8);
    int inÜ = new String(utf8, StandardCharsets.ISO_8859_1).indexOf('Ã') + 1;
    assertThat(TextEncodings.evident(Arrays.copyOf(utf8, inÜ))).hasValue(StandardCharsets.UTF_8);
  }

  @Test
  void asciiAndLegacyEncodingsAreLeftToTheLabel() {
    assertThat(TextEncodings.evident("<p>plain</p>".getBytes(StandardCharsets.US_ASCII))).isEmpty();
    assertThat(TextEncodings.evident(HTML.getBytes(Charset.forName("windows-1252")))).isEmpty();
    assertThat(TextEncodings.evident("Привет, мир".getBytes(Charset.forName("KOI8-R")))).isEmpty();
    assertThat(TextEncodings.evident("日本語のテキスト".getBytes(Charset.forName("Shift_JIS")))).isEmpty();
  }

  @Test
  void binaryIsNotUtf16() {
    byte[] zeros = new byte[64];
    assertThat(TextEncodings.utf16WithoutByteOrderMark(zeros)).isEmpty();
    byte[] mixed = {'a', 0, 0, 'b', 'c', 0, 'd', 0, 'e', 0};
    assertThat(TextEncodings.utf16WithoutByteOrderMark(mixed)).isEmpty();
  }
}
