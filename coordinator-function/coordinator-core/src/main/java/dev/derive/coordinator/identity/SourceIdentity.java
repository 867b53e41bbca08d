package dev.derive.coordinator.identity;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.derive.protocol.message.ObjectRef;

/**
 * What identifies a source's bytes, as found by HEAD and a sniff of its first bytes.
 *
 * @param bucket source bucket
 * @param key object key
 * @param versionId the version the request named, or else the version that was current when the
 *     source was identified (a versioned bucket); {@code null} in a bucket without versions. Steps
 *     read this version, so they read the very bytes the fingerprint names
 * @param etag the entity tag S3 reported
 * @param sizeBytes content length in bytes
 * @param mediaType media type detected from the content
 * @param sha256 the base64 SHA-256 S3 checked when the object was written (an upload presigned with
 *     it), or {@code null}
 */
public record SourceIdentity(
    String bucket,
    String key,
    String versionId,
    String etag,
    long sizeBytes,
    String mediaType,
    String sha256) {

  /** An identity without a SHA-256 checksum. */
  public SourceIdentity(
      String bucket, String key, String versionId, String etag, long sizeBytes, String mediaType) {
    this(bucket, key, versionId, etag, sizeBytes, mediaType, null);
  }

  /** The object this identity names, for a step's input. */
  @JsonIgnore
  public ObjectRef ref() {
    return new ObjectRef(bucket, key, versionId);
  }
}
