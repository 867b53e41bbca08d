package dev.derive.worker.pdf;

import java.io.IOException;
import java.util.Objects;

/**
 * Part of a page cannot be drawn (an image nothing here decodes, an object missing from the file, a
 * font that cannot be loaded), so the page as a whole cannot be rendered faithfully. Thrown out of
 * PDFBox's content-stream processing by {@link CompletePageDrawer}; the message completes the
 * sentence "page N ..." in words a user can act on, the cause keeps PDFBox's own message for logs.
 */
final class UndrawablePartException extends IOException {
  private final String type;

  /**
   * @param type the step error type, one of {@code StepErrorTypes}
   * @param predicate what is wrong with the page, e.g. "has a JPEG 2000 image (/Im0) ..."
   * @param cause what PDFBox reported
   */
  UndrawablePartException(String type, String predicate, Throwable cause) {
    super(predicate, cause);
    this.type = Objects.requireNonNull(type, "type");
  }

  /** The step error type. */
  String type() {
    return type;
  }
}
