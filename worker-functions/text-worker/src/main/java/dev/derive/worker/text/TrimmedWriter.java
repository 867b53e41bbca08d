package dev.derive.worker.text;

import java.io.IOException;
import java.io.Writer;

/**
 * Writes text without its leading and trailing white space, ending it with one line break: Tika
 * opens EPUB and RTF text with the blank lines of empty paragraphs and headers, and a page without
 * text (a scan) with two line breaks. White space inside the text is held back until more text
 * follows, so nothing is buffered but white space. Text that is white space only is written as
 * nothing at all ({@link #hasText} then says so).
 */
final class TrimmedWriter extends Writer {
  private final Writer out;
  private final StringBuilder pending = new StringBuilder();
  private boolean started;

  TrimmedWriter(Writer out) {
    this.out = out;
  }

  /** Whether anything but white space was written. */
  boolean hasText() {
    return started;
  }

  @Override
  public void write(char[] chars, int offset, int length) throws IOException {
    int run = offset; // start of the text not yet written or held back
    for (int i = offset; i < offset + length; i++) {
      if (Character.isWhitespace(chars[i])) {
        if (run < i) {
          out.write(chars, run, i - run);
        }
        if (started) {
          pending.append(chars[i]);
        }
        run = i + 1;
      } else if (!pending.isEmpty()) {
        out.append(pending);
        pending.setLength(0);
        started = true;
      } else {
        started = true;
      }
    }
    if (run < offset + length) {
      out.write(chars, run, offset + length - run);
    }
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  /** Ends the text with one line break, if there was text, and closes the writer below. */
  @Override
  public void close() throws IOException {
    if (started) {
      out.write('\n');
    }
    out.close();
  }
}
