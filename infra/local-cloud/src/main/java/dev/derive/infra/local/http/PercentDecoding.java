package dev.derive.infra.local.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Percent-decoding of URI components (RFC 3986 section 2.1); {@code +} stays a plus in paths. */
final class PercentDecoding {
  private PercentDecoding() {}

  /** Decodes {@code %XX} escapes as UTF-8; malformed escapes are kept as they are. */
  static String decode(String text) {
    return decode(text, false);
  }

  /** Like {@link #decode(String)}, and {@code +} becomes a space (form encoding of queries). */
  static String decodeQuery(String text) {
    return decode(text, true);
  }

  private static String decode(String text, boolean plusIsSpace) {
    if (text.indexOf('%') < 0 && !(plusIsSpace && text.indexOf('+') >= 0)) {
      return text;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' && i + 2 < text.length()) {
        int high = Character.digit(text.charAt(i + 1), 16);
        int low = Character.digit(text.charAt(i + 2), 16);
        if (high >= 0 && low >= 0) {
          out.write(high * 16 + low);
          i += 2;
          continue;
        }
      }
      if (c == '+' && plusIsSpace) {
        out.write(' ');
      } else {
        byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
