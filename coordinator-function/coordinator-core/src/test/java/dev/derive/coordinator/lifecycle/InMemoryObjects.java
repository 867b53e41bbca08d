package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.storage.ObjectMetadata;
import dev.derive.coordinator.storage.ObjectStore;
import dev.derive.coordinator.storage.PresignedDownload;
import java.net.MalformedURLException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-memory {@link ObjectStore} for the lifecycle's fast tests: a map from bucket/key to bytes.
 */
public final class InMemoryObjects implements ObjectStore {
  private final Map<String, byte[]> objects = new ConcurrentHashMap<>();

  /** Stores {@code bytes} at {@code bucket/key}. */
  public void put(String bucket, String key, byte[] bytes) {
    objects.put(bucket + "/" + key, bytes.clone());
  }

  /** Deletes {@code bucket/key} (a lifecycle rule expiring it). */
  public void delete(String bucket, String key) {
    objects.remove(bucket + "/" + key);
  }

  @Override
  public Optional<ObjectMetadata> head(String bucket, String key, String versionId) {
    byte[] bytes = objects.get(bucket + "/" + key);
    return bytes == null
        ? Optional.empty()
        : Optional.of(new ObjectMetadata(bytes.length, "\"" + Arrays.hashCode(bytes) + "\"", null));
  }

  @Override
  public Optional<dev.derive.coordinator.storage.ObjectStart> readStart(
      String bucket, String key, String versionId, int maxBytes, String ifNoneMatch) {
    byte[] bytes = objects.get(bucket + "/" + key);
    return head(bucket, key, versionId)
        .map(
            head ->
                head.etag().equals(ifNoneMatch)
                    ? dev.derive.coordinator.storage.ObjectStart.unchanged(ifNoneMatch, versionId)
                    : new dev.derive.coordinator.storage.ObjectStart(
                        head, Arrays.copyOf(bytes, Math.min(maxBytes, bytes.length))));
  }

  @Override
  public dev.derive.coordinator.storage.PresignedUpload presignPut(
      String bucket, String key, String contentType, long contentLength, Duration lifetime) {
    throw new UnsupportedOperationException("the lifecycle tests upload nothing");
  }

  @Override
  public PresignedDownload presignGet(String bucket, String key, Duration lifetime) {
    try {
      return new PresignedDownload(
          URI.create("http://objects.test/" + bucket + "/" + key).toURL(),
          Instant.EPOCH.plus(lifetime));
    } catch (MalformedURLException e) {
      throw new IllegalStateException(e);
    }
  }
}
