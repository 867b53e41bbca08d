package dev.derive.coordinator.storage;

/**
 * What one ranged GET tells about an object: its metadata and its first bytes.
 *
 * @param metadata size (the whole object's, in bytes), ETag and version id
 * @param firstBytes the object's first bytes, at most as many as were asked for (fewer when the
 *     object is shorter)
 */
public record ObjectStart(ObjectMetadata metadata, byte[] firstBytes) {}
