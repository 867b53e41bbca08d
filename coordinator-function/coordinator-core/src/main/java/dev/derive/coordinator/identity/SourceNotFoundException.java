package dev.derive.coordinator.identity;

import dev.derive.coordinator.CoordinatorException;

/** Thrown when the requested source object (or version) does not exist in the source bucket. */
public class SourceNotFoundException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "source-not-found";

  /** Names the missing object. */
  public SourceNotFoundException(String key, String versionId) {
    super(
        KIND,
        "no source object '"
            + key
            + "'"
            + (versionId == null ? "" : " with version id '" + versionId + "'"));
  }
}
