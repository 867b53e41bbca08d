package dev.derive.storage;

import dev.derive.protocol.message.ObjectRef;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The seam to the object store (S3): what the coordinator needs to identify a source, look up the
 * cache and hand out URLs, and what a worker needs to read a step's input and write its output.
 * {@code dev.derive.aws.s3.S3ObjectStore} is the AWS implementation.
 *
 * <p>A missing object is {@link Optional#empty()} for the methods that ask whether it exists and
 * {@link ObjectNotFoundException} for {@link #download}; any other failure is an {@link
 * ObjectStoreException} (see the package documentation).
 */
public interface ObjectStore {

  /**
   * Reads an object's metadata without its content (HEAD).
   *
   * @param ref the object; its version id, when set, names the version to look at
   * @return the metadata, or empty when no such object (or version, or bucket) exists
   * @throws ObjectStoreException on any other failure (access denied, throttling, network)
   */
  Optional<ObjectMetadata> head(ObjectRef ref);

  /**
   * The size in bytes of {@code ref}, or empty when it does not exist: {@link #head} reduced to the
   * size.
   *
   * @throws ObjectStoreException on any other failure
   */
  default OptionalLong size(ObjectRef ref) {
    return head(ref).map(m -> OptionalLong.of(m.sizeBytes())).orElse(OptionalLong.empty());
  }

  /**
   * Reads an object's metadata, its SHA-256 checksum included ({@link ObjectMetadata#sha256}), and
   * its first bytes: a HEAD, then a ranged GET (RFC 9110 section 14) of the very version the HEAD
   * described; or, given the entity tag it had, only whether it still has it.
   *
   * @param ref the object; its version id, when set, names the version to read
   * @param maxBytes how many bytes at most to read
   * @param ifNoneMatch an entity tag the caller already knows the object by, or {@code null}: when
   *     the object still has it, the answer is {@link ObjectStart#unchanged} with the HEAD's
   *     metadata and no bytes (what {@code If-None-Match} would tell, RFC 9110 section 13.1.2; one
   *     round trip, a second only when the object changed)
   * @return the metadata (with the whole object's size) and up to {@code maxBytes} bytes, or empty
   *     when no such object (or version, or bucket) exists
   * @throws ObjectStoreException on any other failure (access denied, throttling, network)
   */
  Optional<ObjectStart> readStart(ObjectRef ref, int maxBytes, String ifNoneMatch);

  /**
   * Streams {@code ref} into {@code target} (overwritten), reading at most {@code maxBytes} bytes,
   * and only while the object still has the entity tag {@code ifMatchEtag} (S3 {@code If-Match}).
   *
   * @param ifMatchEtag the ETag the object must have, as S3 reports it (quotes included), or {@code
   *     null} for no condition
   * @return the number of bytes written
   * @throws ObjectNotFoundException if the object (or its version, or its bucket) does not exist
   * @throws ObjectChangedException if the object no longer has the ETag {@code ifMatchEtag}
   * @throws ObjectTooLargeException if the object is larger than {@code maxBytes}
   * @throws ObjectStoreException on any other failure of the store
   * @throws IOException on I/O trouble reading the response or writing {@code target}
   */
  long download(ObjectRef ref, String ifMatchEtag, Path target, long maxBytes) throws IOException;

  /**
   * Writes the content of {@code source} to {@code ref} with the given {@code Content-Type}.
   *
   * @throws ObjectStoreException on a failure of the store
   * @throws IOException on I/O trouble reading {@code source}
   */
  void upload(Path source, ObjectRef ref, String contentType) throws IOException;

  /**
   * Presigns a GET of the current version of {@code bucket/key}; makes no request.
   *
   * @param lifetime how long the URL stays valid (SigV4 allows at most 7 days)
   */
  PresignedDownload presignGet(String bucket, String key, Duration lifetime);

  /**
   * Presigns a PUT of {@code bucket/key} with a fixed content type and length, so the uploader
   * cannot store another size or type than it declared; makes no request.
   *
   * @param contentLength exact body size in bytes
   * @param lifetime how long the URL stays valid (SigV4 allows at most 7 days)
   */
  PresignedUpload presignPut(
      String bucket, String key, String contentType, long contentLength, Duration lifetime);

  /**
   * {@link #presignPut(String, String, String, long, Duration)} that also signs the body's SHA-256,
   * so the store refuses any other bytes and keeps the checksum ({@link ObjectMetadata#sha256}).
   *
   * @param sha256 the base64 SHA-256 of the body the client will send, or {@code null} for none
   * @throws UnsupportedOperationException from a store that cannot sign a checksum
   */
  default PresignedUpload presignPut(
      String bucket,
      String key,
      String contentType,
      long contentLength,
      String sha256,
      Duration lifetime) {
    if (sha256 != null) {
      throw new UnsupportedOperationException("this store signs no checksum");
    }
    return presignPut(bucket, key, contentType, contentLength, lifetime);
  }
}
