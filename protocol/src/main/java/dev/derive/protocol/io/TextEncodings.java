package dev.derive.protocol.io;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The encodings text's own bytes prove, before any label (an HTTP {@code charset}, an HTML {@code
 * <meta charset>}, an XML declaration) is believed: a byte order mark (WHATWG Encoding, "decode":
 * the BOM wins over every label), UTF-16 without one (every other byte zero, as browsers' detectors
 * see it), and UTF-8 that decodes without error and is not ASCII alone (legacy single- and
 * multi-byte encodings almost never form valid multi-byte UTF-8 sequences by chance). Any other
 * text leaves the choice to the label and then to a statistical detector.
 */
public final class TextEncodings {
  private TextEncodings() {}

  /** Shortest sample UTF-16 without a byte order mark is recognised in: four characters. */
  static final int MIN_UTF16_BYTES = 8;

  /**
   * The encoding {@code bytes} prove, or empty when they leave it open (ASCII alone, or bytes that
   * are no valid UTF-8: a legacy encoding a label or detector must name).
   *
   * @param bytes the text, or its first bytes (a multi-byte sequence cut at the end is allowed)
   */
  public static Optional<Charset> evident(byte[] bytes) {
    return byteOrderMark(bytes)
        .or(() -> utf16WithoutByteOrderMark(bytes))
        .or(
            () ->
                isUtf8(bytes) && !isAscii(bytes)
                    ? Optional.of(StandardCharsets.UTF_8)
                    : Optional.empty());
  }

  /** The encoding of a leading byte order mark: UTF-8, UTF-16BE or UTF-16LE. */
  public static Optional<Charset> byteOrderMark(byte[] bytes) {
    if (bytes.length >= 3
        && (bytes[0] & 0xFF) == 0xEF
        && (bytes[1] & 0xFF) == 0xBB
        && (bytes[2] & 0xFF) == 0xBF) {
      return Optional.of(StandardCharsets.UTF_8);
    }
    if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF) {
      return Optional.of(StandardCharsets.UTF_16BE);
    }
    if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE) {
      return Optional.of(StandardCharsets.UTF_16LE);
    }
    return Optional.empty();
  }

  /**
   * UTF-16 without a byte order mark: text mostly of characters below U+0100 (markup, Latin,
   * digits, white space) has a zero in each character's high byte, so the zero bytes all stand at
   * odd offsets (little-endian) or all at even ones (big-endian), and at least half of the
   * characters have one. A zero at the other offsets, or two zero bytes in a row, is not such text.
   */
  public static Optional<Charset> utf16WithoutByteOrderMark(byte[] bytes) {
    int length = bytes.length & ~1;
    if (length < MIN_UTF16_BYTES) {
      return Optional.empty();
    }
    int evenZeros = 0;
    int oddZeros = 0;
    for (int i = 0; i < length; i += 2) {
      boolean evenZero = bytes[i] == 0;
      boolean oddZero = bytes[i + 1] == 0;
      if (evenZero && oddZero) {
        return Optional.empty();
      }
      evenZeros += evenZero ? 1 : 0;
      oddZeros += oddZero ? 1 : 0;
    }
    int characters = length / 2;
    if (evenZeros == 0 && oddZeros * 2 >= characters) {
      return Optional.of(StandardCharsets.UTF_16LE);
    }
    if (oddZeros == 0 && evenZeros * 2 >= characters) {
      return Optional.of(StandardCharsets.UTF_16BE);
    }
    return Optional.empty();
  }

  /** Whether every byte is ASCII (below 0x80). */
  public static boolean isAscii(byte[] bytes) {
    for (byte b : bytes) {
      if (b < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code bytes} decode as UTF-8 without error, allowing a sequence cut short by the end
   * of the sample.
   */
  public static boolean isUtf8(byte[] bytes) {
    return decodes(bytes, bytes.length - incompleteTail(bytes), StandardCharsets.UTF_8);
  }

  /** How many bytes at the end start a UTF-8 sequence that the end cuts short (0 to 3). */
  private static int incompleteTail(byte[] bytes) {
    for (int back = 1; back <= Math.min(3, bytes.length); back++) {
      int b = bytes[bytes.length - back] & 0xFF;
      if ((b & 0xC0) == 0x80) {
        continue; // a continuation byte: its lead byte is further back
      }
      int length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
      return length > back ? back : 0;
    }
    return 0;
  }

  /**
   * Whether {@code sample} decodes in {@code charset} without a malformed or unmappable byte; when
   * {@code cut} (the sample is the start of longer text), up to three bytes at its end may be the
   * start of a character the cut splits.
   */
  public static boolean decodesSample(byte[] sample, boolean cut, Charset charset) {
    for (int end = 0; end <= (cut ? Math.min(3, sample.length) : 0); end++) {
      if (decodes(sample, sample.length - end, charset)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the first {@code length} bytes decode in {@code charset} without a malformed byte. */
  public static boolean decodes(byte[] bytes, int length, Charset charset) {
    try {
      charset
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, 0, length));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
