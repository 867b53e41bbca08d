package dev.derive.coordinator.identity;

import dev.derive.coordinator.CoordinatorException;

/** Thrown when the source is larger than {@code MAX_SOURCE_BYTES}. */
public class SourceTooLargeException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "source-too-large";

  /** Names the object's size and the limit, both in bytes. */
  public SourceTooLargeException(String key, long sizeBytes, long limitBytes) {
    super(
        KIND,
        "source object '"
            + key
            + "' has "
            + sizeBytes
            + " bytes; the limit is "
            + limitBytes
            + " bytes");
  }
}
