package dev.derive.worker.text;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Checks on legacy-encoded plain text that Tika's detectors leave open. */
final class LegacyText {
  private static final int BUFFER_BYTES = 64 * 1024;

  private LegacyText() {}

  /** Whether the UTF-8 text of {@code file} contains U+FFFD, the replacement character. */
  static boolean hasReplacementCharacters(Path file) throws IOException {
    try (java.io.Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
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
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
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
        if (decoder.decode(bytes, chars, false).isError()) {
          return false;
        }
        bytes.compact();
        chars.clear();
      }
      bytes.flip();
      return !decoder.decode(bytes, chars, true).isError() && !decoder.flush(chars).isError();
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}
