package dev.derive.protocol.message;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * Names one S3 object.
 *
 * @param bucket bucket name
 * @param key object key (at most 1024 UTF-8 bytes, the S3 limit)
 * @param versionId version id, or {@code null} for the current version
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ObjectRef(String bucket, String key, String versionId) {
  public ObjectRef {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(key, "key");
  }

  /** An object reference to the current version of {@code bucket/key}. */
  public static ObjectRef of(String bucket, String key) {
    return new ObjectRef(bucket, key, null);
  }

  @Override
  public String toString() {
    return "s3://" + bucket + "/" + key + (versionId == null ? "" : "?versionId=" + versionId);
  }
}
