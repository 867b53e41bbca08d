package dev.derive.coordinator.identity;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.derive.protocol.message.ObjectRef;

/**
 * What identifies a source's bytes, as found by HEAD and a sniff of its first bytes.
 *
 * @param bucket source bucket
 * @param key object key
 * @param versionId the version id the request named, or {@code null} for the current version
 * @param etag the entity tag S3 reported
 * @param sizeBytes content length in bytes
 * @param mediaType media type detected from the content
 */
public record SourceIdentity(
    String bucket, String key, String versionId, String etag, long sizeBytes, String mediaType) {

  /** The object this identity names, for a step's input. */
  @JsonIgnore
  public ObjectRef ref() {
    return new ObjectRef(bucket, key, versionId);
  }
}
