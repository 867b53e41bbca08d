package dev.derive.worker.runtime;

import dev.derive.protocol.message.ObjectRef;
import dev.derive.worker.runtime.store.ObjectNotFoundException;
import dev.derive.worker.runtime.store.ObjectStore;
import dev.derive.worker.runtime.store.ObjectTooLargeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/** An {@link ObjectStore} in memory, for the runtime's pure-logic tests. */
final class InMemoryObjectStore implements ObjectStore {
  final Map<String, byte[]> objects = new HashMap<>();
  final Map<String, String> contentTypes = new HashMap<>();
  IOException nextFailure;

  void put(ObjectRef ref, byte[] bytes) {
    objects.put(ref.toString(), bytes);
  }

  byte[] get(ObjectRef ref) {
    return objects.get(ref.toString());
  }

  @Override
  public OptionalLong size(ObjectRef ref) throws IOException {
    failIfAsked();
    byte[] bytes = objects.get(ref.toString());
    return bytes == null ? OptionalLong.empty() : OptionalLong.of(bytes.length);
  }

  @Override
  public long download(ObjectRef ref, Path target, long maxBytes) throws IOException {
    failIfAsked();
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
    objects.put(ref.toString(), Files.readAllBytes(source));
    contentTypes.put(ref.toString(), contentType);
  }

  private void failIfAsked() throws IOException {
    if (nextFailure != null) {
      IOException failure = nextFailure;
      nextFailure = null;
      throw failure;
    }
  }
}
