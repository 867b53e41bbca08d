package dev.derive.coordinator.storage;

import java.time.Duration;
import java.util.Optional;

/**
 * The seam to the object store (S3): what the coordinator needs to identify a source, look up the
 * cache and hand out downloads. Implementations translate to one store's API; {@link S3ObjectStore}
 * is the AWS one.
 */
public interface ObjectStore {

  /**
   * Reads an object's metadata without its content.
   *
   * @param versionId version to look at, or {@code null} for the current one
   * @return the metadata, or empty when no such object (or version) exists
   * @throws ObjectStoreException on any other failure (access denied, throttling, network)
   */
  Optional<ObjectMetadata> head(String bucket, String key, String versionId);

  /**
   * Reads an object's metadata and its first bytes in one request (an HTTP range request, RFC 9110
   * section 14): what a HEAD and a ranged GET would tell, for one round trip.
   *
   * @param versionId version to read, or {@code null} for the current one
   * @param maxBytes how many bytes at most to read
   * @param ifNoneMatch an entity tag the caller already knows the object by, or {@code null}: when
   *     the object still has it, the answer is {@link ObjectStart#unchanged} and carries no bytes
   *     (a conditional GET, RFC 9110 section 13.1.2; S3 answers 304 as cheaply as a HEAD)
   * @return the metadata (with the whole object's size) and up to {@code maxBytes} bytes, or empty
   *     when no such object (or version) exists
   * @throws ObjectStoreException on any other failure (access denied, throttling, network)
   */
  Optional<ObjectStart> readStart(
      String bucket, String key, String versionId, int maxBytes, String ifNoneMatch);

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
}
