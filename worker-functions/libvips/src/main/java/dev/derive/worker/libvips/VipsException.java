package dev.derive.worker.libvips;

/**
 * A libvips call failed; the message is libvips' own error buffer ({@code vips_error_buffer}) at
 * the time of the failure, e.g. {@code "heifload: ... is not a known file format"}.
 */
public final class VipsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what was asked of libvips and libvips' error text
   */
  public VipsException(String message) {
    super(message);
  }
}
