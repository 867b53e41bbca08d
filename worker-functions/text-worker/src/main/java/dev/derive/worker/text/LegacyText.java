package dev.derive.worker.text;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.tika.parser.txt.CharsetDetector;
import org.apache.tika.parser.txt.CharsetMatch;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;

/**
 * Legacy-encoded plain text that Tika's detectors got wrong. They pick a charset from the first few
 * kilobytes by letter statistics, and two things then put U+FFFD in the text: bytes the charset has
 * no character for, and bytes it decodes to control characters, which Tika's XHTML stream cannot
 * carry and replaces (EBCDIC read as ISO-8859-1 turns every line break, byte 0x15, into U+FFFD).
 * This class picks the charset that reads the whole file as text and decodes it without Tika.
 */
final class LegacyText {
  private static final int BUFFER_BYTES = 64 * 1024;

  /** The last resort, as the WHATWG Encoding Standard has it for legacy Western text. */
  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  private LegacyText() {}

  /** Whether the UTF-8 text of {@code file} contains U+FFFD, the replacement character. */
  static boolean hasReplacementCharacters(Path file) throws IOException {
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      char[] buffer = new char[BUFFER_BYTES];
      int read;
      while ((read = in.read(buffer)) >= 0) {
        for (int i = 0; i < read; i++) {
          if (buffer[i] == '\uFFFD') {
            return true;
          }
        }
      }
      return false;
    }
  }

  /** Whether the whole file decodes as UTF-8 without a malformed sequence. */
  static boolean isUtf8(Path file) throws IOException {
    return decodes(file, StandardCharsets.UTF_8, false);
  }

  /**
   * The charset to read {@code file} with: of the detectors' candidates ({@code detected}, Tika's
   * choice, first; then ICU's matches by confidence; windows-1252 last), the first that decodes
   * every byte into text (no control character but tab, line feed, vertical tab, form feed,
   * carriage return and the DOS end-of-file mark), else the first that decodes every byte at all,
   * else windows-1252.
   *
   * @param detected the charset Tika chose, or {@code null}
   */
  static Charset charsetFor(Path file, String detected) throws IOException {
    Set<Charset> candidates = new LinkedHashSet<>();
    add(candidates, detected);
    CharsetDetector icu = new CharsetDetector();
    try (InputStream in = Files.newInputStream(file)) {
      icu.setText(in.readNBytes(BUFFER_BYTES));
    }
    for (CharsetMatch match : icu.detectAll()) {
      add(candidates, match.getName());
    }
    candidates.add(WINDOWS_1252);
    for (Charset charset : candidates) {
      if (decodes(file, charset, true)) {
        return charset;
      }
    }
    for (Charset charset : candidates) {
      if (decodes(file, charset, false)) {
        return charset;
      }
    }
    return WINDOWS_1252;
  }

  /**
   * Decodes {@code file} with {@code charset} into {@code handler} as characters, unchanged
   * (control characters included; a byte the charset has no character for becomes U+FFFD).
   */
  static void decode(Path file, Charset charset, ContentHandler handler)
      throws IOException, SAXException {
    try (Reader in = new InputStreamReader(Files.newInputStream(file), charset)) {
      char[] buffer = new char[BUFFER_BYTES];
      int read;
      while ((read = in.read(buffer)) >= 0) {
        handler.characters(buffer, 0, read);
      }
    }
  }

  private static void add(Set<Charset> candidates, String name) {
    if (name == null || name.isBlank()) {
      return;
    }
    // ICU names the direction of Arabic and Hebrew EBCDIC (IBM420_ltr); Java does not
    String base = name.replaceFirst("_(ltr|rtl)$", "");
    try {
      candidates.add(Charset.forName(base));
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      // a name Java does not know: not a candidate
    }
  }

  /**
   * Whether every byte of {@code file} decodes in {@code charset}; with {@code textOnly}, also
   * whether no control character but the ones text holds comes out.
   */
  private static boolean decodes(Path file, Charset charset, boolean textOnly) throws IOException {
    if (!charset.canEncode()) {
      return false; // a decode-only charset such as ISO-2022-CN: never a legacy text's
    }
    CharsetDecoder decoder =
        charset
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer bytes = ByteBuffer.allocate(BUFFER_BYTES);
    CharBuffer chars = CharBuffer.allocate(BUFFER_BYTES);
    try (InputStream in = Files.newInputStream(file)) {
      int read;
      while ((read = in.read(bytes.array(), bytes.position(), bytes.remaining())) >= 0) {
        bytes.position(bytes.position() + read);
        bytes.flip();
        if (decoder.decode(bytes, chars, false).isError() || (textOnly && hasControl(chars))) {
          return false;
        }
        bytes.compact();
        chars.clear();
      }
      bytes.flip();
      return !decoder.decode(bytes, chars, true).isError()
          && !decoder.flush(chars).isError()
          && !(textOnly && hasControl(chars));
    }
  }

  /** Whether the chars written to {@code chars} hold a control character text does not. */
  private static boolean hasControl(CharBuffer chars) {
    for (int i = 0; i < chars.position(); i++) {
      char c = chars.get(i);
      if (Character.isISOControl(c) && (c < '\t' || c > '\r') && c != 0x1A) {
        return true;
      }
    }
    return false;
  }
}
