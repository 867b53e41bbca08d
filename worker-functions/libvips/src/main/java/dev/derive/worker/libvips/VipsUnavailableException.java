package dev.derive.worker.libvips;

/**
 * libvips could not be found or loaded on this machine (a deployment fault, never the input's): the
 * message says where it was looked for and why it failed.
 */
public final class VipsUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message where libvips was looked for and what went wrong
   * @param cause the loader's error, or {@code null}
   */
  public VipsUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
