package dev.derive.coordinator.lifecycle;

import dev.derive.protocol.message.ObjectRef;
import dev.derive.storage.ObjectMetadata;
import dev.derive.storage.ObjectStart;
import dev.derive.storage.ObjectStore;
import dev.derive.storage.PresignedDownload;
import dev.derive.storage.PresignedUpload;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An in-memory {@link ObjectStore} for the lifecycle's fast tests: a map from bucket/key to bytes.
 */
public class InMemoryObjects implements ObjectStore {
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
  public Optional<ObjectMetadata> head(ObjectRef ref) {
    byte[] bytes = objects.get(ref.bucket() + "/" + ref.key());
    return bytes == null
        ? Optional.empty()
        : Optional.of(new ObjectMetadata(bytes.length, "\"" + Arrays.hashCode(bytes) + "\"", null));
  }

  @Override
  public Optional<ObjectStart> readStart(ObjectRef ref, int maxBytes, String ifNoneMatch) {
    byte[] bytes = objects.get(ref.bucket() + "/" + ref.key());
    return head(ref)
        .map(
            head ->
                head.etag().equals(ifNoneMatch)
                    ? ObjectStart.unchanged(ifNoneMatch, ref.versionId())
                    : new ObjectStart(
                        head, Arrays.copyOf(bytes, Math.min(maxBytes, bytes.length))));
  }

  @Override
  public long download(ObjectRef ref, String ifMatchEtag, Path target, long maxBytes) {
    throw new UnsupportedOperationException("the coordinator reads no whole object");
  }

  @Override
  public void upload(Path source, ObjectRef ref, String contentType) {
    throw new UnsupportedOperationException("the coordinator writes no object");
  }

  @Override
  public PresignedUpload presignPut(
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
