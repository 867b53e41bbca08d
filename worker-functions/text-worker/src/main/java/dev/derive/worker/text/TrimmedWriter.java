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
  private final boolean lines;
  private boolean started;

  TrimmedWriter(Writer out) {
    this(out, false);
  }

  private TrimmedWriter(Writer out, boolean lines) {
    this.out = out;
    this.lines = lines;
  }

  /**
   * A trimmed writer that also writes text as lines read, as {@code pdftotext} writes them: no
   * white space at the end of a line (a PDF's lines often end in the space glyph before the break)
   * and at most one blank line in a row (Tika's page and paragraph ends each add a line break). For
   * PDFs, whose line breaks are the extractor's, not the author's: a text file's trailing spaces (a
   * Markdown hard break) stay.
   */
  static TrimmedWriter lines(Writer out) {
    return new TrimmedWriter(out, true);
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
        writePending();
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

  /**
   * The white space held back, before more text: as it is, or, writing {@link #lines}, with at most
   * two line breaks (one blank line) and nothing before the last of them.
   */
  private void writePending() throws IOException {
    int lastBreak = lines ? pending.lastIndexOf("\n") : -1;
    if (lastBreak < 0) {
      out.append(pending);
      return;
    }
    int breaks = 0;
    for (int i = 0; i <= lastBreak && breaks < 2; i++) {
      if (pending.charAt(i) == '\n') {
        breaks++;
      }
    }
    out.write(breaks == 1 ? "\n" : "\n\n");
    out.append(pending, lastBreak + 1, pending.length());
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
