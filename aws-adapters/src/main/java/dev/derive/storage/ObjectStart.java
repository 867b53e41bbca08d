package dev.derive.storage;

/**
 * What one ranged GET tells about an object: its metadata and its first bytes; or, for a
 * conditional request whose entity tag matched, only that the object is unchanged.
 *
 * @param metadata size (the whole object's, in bytes; -1 when unchanged: the caller knows it
 *     already), ETag and version id
 * @param firstBytes the object's first bytes, at most as many as were asked for (fewer when the
 *     object is shorter); empty when unchanged
 * @param unchanged whether the object still has the ETag the request named (what {@code
 *     If-None-Match} answers with 304 Not Modified, RFC 9110 section 13.1.2)
 */
public record ObjectStart(ObjectMetadata metadata, byte[] firstBytes, boolean unchanged) {

  /** An object read from its start. */
  public ObjectStart(ObjectMetadata metadata, byte[] firstBytes) {
    this(metadata, firstBytes, false);
  }

  /** An object that still has the entity tag {@code etag}. */
  public static ObjectStart unchanged(String etag, String versionId) {
    return new ObjectStart(new ObjectMetadata(-1, etag, versionId), new byte[0], true);
  }
}
