package dev.derive.worker.text;

import org.apache.tika.exception.WriteLimitReachedException;
import org.apache.tika.sax.ContentHandlerDecorator;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;

/**
 * Passes text on to a handler until it would exceed a limit in UTF-8 bytes, then throws Tika's
 * {@link WriteLimitReachedException}, which Tika's parsers let through (the PDF parser, for one,
 * swallows any other exception a page's text raises, logs it as a warning and parses the next
 * page), so the parse stops the moment the cap is hit. What was passed on never exceeds the limit.
 */
final class TextCapHandler extends ContentHandlerDecorator {
  private final long maxBytes;
  private long bytes;

  /** Whether the last char passed on was a high surrogate, already counted as a 4-byte pair. */
  private boolean pairOpen;

  /**
   * @param handler receives the text
   * @param maxBytes the most UTF-8 bytes passed on
   */
  TextCapHandler(ContentHandler handler, long maxBytes) {
    super(handler);
    this.maxBytes = maxBytes;
  }

  @Override
  public void characters(char[] ch, int start, int length) throws SAXException {
    reserve(ch, start, length);
    super.characters(ch, start, length);
  }

  @Override
  public void ignorableWhitespace(char[] ch, int start, int length) throws SAXException {
    reserve(ch, start, length);
    super.ignorableWhitespace(ch, start, length);
  }

  /** Whether the limit was hit, even if a parser caught the exception and carried on. */
  boolean reached() {
    return bytes > maxBytes;
  }

  /** Whether the limit stopped the text (a {@link WriteLimitReachedException} anywhere in it). */
  static boolean limitReached(Throwable failure) {
    return WriteLimitReachedException.isWriteLimitReached(failure);
  }

  private void reserve(char[] ch, int start, int length) throws WriteLimitReachedException {
    bytes += utf8Bytes(ch, start, length);
    if (bytes > maxBytes) {
      throw new WriteLimitReachedException((int) Math.min(maxBytes, Integer.MAX_VALUE));
    }
  }

  /**
   * The UTF-8 length of the chars, never less than what the writer makes of them: a high surrogate
   * counts as its whole 4-byte pair (its low half, maybe in the next call, then counts nothing); a
   * lone low surrogate as the 1-byte '?' it is written as.
   */
  private long utf8Bytes(char[] ch, int start, int length) {
    long total = 0;
    for (int i = start; i < start + length; i++) {
      char c = ch[i];
      boolean closesPair = pairOpen && Character.isLowSurrogate(c);
      pairOpen = Character.isHighSurrogate(c);
      if (closesPair) {
        continue;
      }
      if (c < 0x80 || Character.isLowSurrogate(c)) {
        total += 1;
      } else if (c < 0x800) {
        total += 2;
      } else if (pairOpen) {
        total += 4;
      } else {
        total += 3;
      }
    }
    return total;
  }
}
