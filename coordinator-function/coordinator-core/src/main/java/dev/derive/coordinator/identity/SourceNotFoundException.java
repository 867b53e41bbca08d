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

  /**
   * Names a missing object of the source bucket that a parameter at {@code pointer} names (one
   * declared {@code sourceObject}, e.g. {@code /target/watermark}).
   */
  public SourceNotFoundException(String key, String pointer, boolean parameter) {
    super(KIND, pointer + ": no object '" + key + "' in the source bucket");
    this.pointer = pointer;
  }

  /** RFC 6901 JSON pointer to the request member naming the missing object. */
  public String pointer() {
    return pointer;
  }
}
