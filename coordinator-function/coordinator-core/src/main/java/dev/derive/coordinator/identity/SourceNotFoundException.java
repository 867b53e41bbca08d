package dev.derive.coordinator.identity;

import dev.derive.coordinator.CoordinatorException;

/** Thrown when the requested source object (or version) does not exist in the source bucket. */
public class SourceNotFoundException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "source-not-found";

  private final String pointer;

  /** Names the missing object, and the request member that named it. */
  public SourceNotFoundException(String key, String versionId) {
    super(
        KIND,
        (versionId == null ? "/source/key" : "/source/versionId")
            + ": no source object '"
            + key
            + "'"
            + (versionId == null ? "" : " with version id '" + versionId + "'"));
    this.pointer = versionId == null ? "/source/key" : "/source/versionId";
  }

  /** RFC 6901 JSON pointer to the request member naming the missing object. */
  public String pointer() {
    return pointer;
  }
}
