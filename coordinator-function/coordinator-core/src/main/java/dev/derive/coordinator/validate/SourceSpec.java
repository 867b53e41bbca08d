package dev.derive.coordinator.validate;

/**
 * The validated {@code source} of a request: an object key in the source bucket.
 *
 * @param key object key (1 to 1024 UTF-8 bytes, see {@link ObjectKeys})
 * @param versionId S3 version id, or {@code null} for the current version
 */
public record SourceSpec(String key, String versionId) {}
