package dev.derive.worker.runtime;

import dev.derive.protocol.message.ObjectRef;
import dev.derive.storage.ObjectChangedException;
import dev.derive.storage.ObjectMetadata;
import dev.derive.storage.ObjectNotFoundException;
import dev.derive.storage.ObjectStart;
import dev.derive.storage.ObjectStore;
import dev.derive.storage.ObjectStoreException;
import dev.derive.storage.ObjectTooLargeException;
import dev.derive.storage.PresignedDownload;
import dev.derive.storage.PresignedUpload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An {@link ObjectStore} in memory, for the runtime's pure-logic tests. An object's ETag is {@code
 * "v<n>"} (quotes included), n counting its writes.
 */
final class InMemoryObjectStore implements ObjectStore {
  final Map<String, byte[]> objects = new HashMap<>();
  final Map<String, Integer> writes = new HashMap<>();
  final Map<String, String> contentTypes = new HashMap<>();
  IOException nextFailure;
  Throwable nextDownloadFailure;

  /** The next {@link #upload} writes its object, then throws this, then no more. */
  RuntimeException failAfterUpload;

  /** The next {@link #head} fails with this (wrapped as the S3 adapter wraps it), then no more. */
  volatile IOException nextHeadFailure;

  /** When set, {@link #head} first waits (up to 10 s) until this holds; whether it did. */
  volatile java.util.function.BooleanSupplier headWaitsFor;

  volatile Boolean headSawItHold;

  /** How many downloads have begun. */
  final java.util.concurrent.atomic.AtomicInteger downloads =
      new java.util.concurrent.atomic.AtomicInteger();

  void put(ObjectRef ref, byte[] bytes) {
    objects.put(ref.toString(), bytes);
    writes.merge(ref.toString(), 1, Integer::sum);
  }

  /** The ETag of {@code ref} as it is now, or {@code null} if it does not exist. */
  String etag(ObjectRef ref) {
    Integer n = writes.get(ref.toString());
    return n == null ? null : "\"v" + n + "\"";
  }

  byte[] get(ObjectRef ref) {
    return objects.get(ref.toString());
  }

  @Override
  public Optional<ObjectMetadata> head(ObjectRef ref) {
    java.util.function.BooleanSupplier condition = headWaitsFor;
    if (condition != null) {
      headSawItHold = Polling.until(condition);
    }
    IOException headFailure = nextHeadFailure;
    if (headFailure != null) {
      nextHeadFailure = null;
      throw new ObjectStoreException("HeadObject " + ref + " failed", headFailure);
    }
    if (nextFailure != null) {
      IOException failure = nextFailure;
      nextFailure = null;
      throw new ObjectStoreException("HeadObject " + ref + " failed", failure);
    }
    byte[] bytes = objects.get(ref.toString());
    return bytes == null
        ? Optional.empty()
        : Optional.of(new ObjectMetadata(bytes.length, etag(ref), ref.versionId()));
  }

  @Override
  public Optional<ObjectStart> readStart(ObjectRef ref, int maxBytes, String ifNoneMatch) {
    throw new UnsupportedOperationException("a worker reads whole objects");
  }

  @Override
  public PresignedDownload presignGet(String bucket, String key, Duration lifetime) {
    throw new UnsupportedOperationException("a worker presigns nothing");
  }

  @Override
  public PresignedUpload presignPut(
      String bucket, String key, String contentType, long contentLength, Duration lifetime) {
    throw new UnsupportedOperationException("a worker presigns nothing");
  }

  @Override
  public long download(ObjectRef ref, String ifMatchEtag, Path target, long maxBytes)
      throws IOException {
    downloads.incrementAndGet();
    failIfAsked();
    if (nextDownloadFailure != null) {
      Throwable failure = nextDownloadFailure;
      nextDownloadFailure = null;
      if (failure instanceof Error error) {
        throw error;
      }
      if (failure instanceof IOException io) {
        throw io;
      }
      throw (RuntimeException) failure;
    }
    if (ifMatchEtag != null
        && objects.containsKey(ref.toString())
        && !ifMatchEtag.equals(etag(ref))) {
      throw new ObjectChangedException(ref, ifMatchEtag, null);
    }
    byte[] bytes = objects.get(ref.toString());
    if (bytes == null) {
      throw new ObjectNotFoundException(ref, null);
    }
    if (bytes.length > maxBytes) {
      throw new ObjectTooLargeException(ref, maxBytes);
    }
    Files.write(target, bytes);
    return bytes.length;
  }

  @Override
  public void upload(Path source, ObjectRef ref, String contentType) throws IOException {
    failIfAsked();
    put(ref, Files.readAllBytes(source));
    contentTypes.put(ref.toString(), contentType);
    RuntimeException after = failAfterUpload;
    if (after != null) {
      failAfterUpload = null;
      throw after;
    }
  }

  private void failIfAsked() throws IOException {
    if (nextFailure != null) {
      IOException failure = nextFailure;
      nextFailure = null;
      throw failure;
    }
  }
}
