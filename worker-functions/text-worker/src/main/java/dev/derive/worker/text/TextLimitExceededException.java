package dev.derive.worker.text;

import java.io.IOException;

/** The extracted text grew past {@code MAX_TEXT_BYTES}; the parse is abandoned. */
public final class TextLimitExceededException extends IOException {
  /**
   * @param maxBytes the limit, in bytes
   */
  public TextLimitExceededException(long maxBytes) {
    super("text output exceeds " + maxBytes + " bytes");
  }
}
