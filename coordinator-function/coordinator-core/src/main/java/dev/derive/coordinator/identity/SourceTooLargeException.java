package dev.derive.coordinator.identity;

import dev.derive.coordinator.CoordinatorException;

/** Thrown when the source is larger than {@code MAX_SOURCE_BYTES}. */
public class SourceTooLargeException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "source-too-large";

  /** Names the object's size and the limit, both in bytes. */
  public SourceTooLargeException(String key, long sizeBytes, long limitBytes) {
    this(
        "source object '"
            + key
            + "' has "
            + sizeBytes
            + " bytes; the limit is "
            + limitBytes
            + " bytes");
  }

  private SourceTooLargeException(String message) {
    super(KIND, message);
  }

  /**
   * An upload declared larger than a source may be: names the file, its declared size and the
   * limit, both in bytes (the object does not exist yet).
   */
  public static SourceTooLargeException declaredUpload(
      String fileName, long sizeBytes, long limitBytes) {
    return new SourceTooLargeException(
        "the upload '"
            + fileName
            + "' is declared with "
            + sizeBytes
            + " bytes; a source may have at most "
            + limitBytes
            + " bytes");
  }
}
