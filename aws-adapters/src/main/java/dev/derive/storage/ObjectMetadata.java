package dev.derive.storage;

/**
 * What a HEAD request tells about an object.
 *
 * @param sizeBytes content length in bytes
 * @param etag the entity tag as S3 returns it (quotes included)
 * @param versionId the version id, or {@code null} when the bucket is not versioned
 */
public record ObjectMetadata(long sizeBytes, String etag, String versionId) {}
