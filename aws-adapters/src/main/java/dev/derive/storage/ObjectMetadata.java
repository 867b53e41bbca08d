package dev.derive.storage;

/**
 * What a HEAD request tells about an object.
 *
 * @param sizeBytes content length in bytes
 * @param etag the entity tag as S3 returns it (quotes included)
 * @param versionId the version id, or {@code null} when the bucket is not versioned
 * @param sha256 the base64 SHA-256 of the whole object that S3 checked when it was written (sent
 *     with the upload as {@code x-amz-checksum-sha256}), or {@code null} when it has none (written
 *     without one, or in parts: a multipart checksum is of the parts, not the bytes)
 */
public record ObjectMetadata(long sizeBytes, String etag, String versionId, String sha256) {

  /** Metadata without a SHA-256 checksum. */
  public ObjectMetadata(long sizeBytes, String etag, String versionId) {
    this(sizeBytes, etag, versionId, null);
  }
}
