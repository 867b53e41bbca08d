package dev.derive.storage;

/**
 * What reading an object's start tells: its metadata and its first bytes; or, when the entity tag
 * the caller knew still matches, only that the object is unchanged (with the metadata of the HEAD
 * that said so, its version id among it).
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
    return unchanged(new ObjectMetadata(-1, etag, versionId));
  }

  /** An object that still has the entity tag its {@code head} gives, with what the HEAD told. */
  public static ObjectStart unchanged(ObjectMetadata head) {
    return new ObjectStart(head, new byte[0], true);
  }
}
