package dev.derive.worker.markup;

import com.ibm.icu.text.CharsetDetector;
import com.ibm.icu.text.CharsetMatch;
import dev.derive.protocol.io.TextEncodings;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Optional;

/**
 * The charset a Markdown or HTML source is decoded with: what its bytes prove ({@link
 * TextEncodings#evident}: a byte order mark, UTF-16 without one, valid UTF-8), else its label (the
 * media type's {@code charset}, an HTML {@code <meta charset>}) when the bytes decode in it without
 * error, else ICU4J's statistical detector (markup ignored), else windows-1252, the WHATWG default
 * for unlabelled Western text. So a label that lies about its bytes (a page saved as windows-1252
 * under {@code <meta charset="utf-8">}) never turns text into U+FFFD.
 */
final class SourceCharset {
  /** windows-1252: every byte but five is a character, and browsers read Latin-1 labels as it. */
  static final Charset FALLBACK = Charset.forName("windows-1252");

  private SourceCharset() {}

  /** What {@code bytes} prove, before any label. */
  static Optional<Charset> evident(byte[] bytes) {
    return TextEncodings.evident(bytes);
  }

  /** Whether {@code label} reads {@code bytes} without a malformed or unmappable byte. */
  static boolean reads(Charset label, byte[] bytes) {
    return label != null && TextEncodings.decodes(bytes, bytes.length, label);
  }

  /** {@code bytes} decoded in {@code charset}, without a leading byte order mark. */
  static String decode(byte[] bytes, Charset charset) {
    String text = new String(bytes, charset);
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  /** ICU4J's best guess for bytes neither their evidence nor a label decides, or the fallback. */
  static Charset detected(byte[] bytes) {
    CharsetDetector detector = new CharsetDetector();
    detector.enableInputFilter(true); // markup is no evidence of a charset
    detector.setText(bytes);
    for (CharsetMatch match : detector.detectAll()) {
      try {
        Charset charset = Charset.forName(match.getName());
        if (reads(charset, bytes)) {
          return charset;
        }
      } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
        // a charset this JVM lacks: the next match
      }
    }
    return FALLBACK;
  }
}
