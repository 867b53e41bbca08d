package dev.derive.worker.runtime.store;

import dev.derive.protocol.message.ObjectRef;
import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Where step inputs are read from and step outputs written to. {@link S3ObjectStore} is the AWS
 * implementation. Methods throw SDK or I/O exceptions for transient trouble; the runtime retries
 * those.
 */
public interface ObjectStore {

  /**
   * Returns the size in bytes of {@code ref} if it exists, empty if it does not.
   *
   * @throws IOException on I/O trouble reaching the store
   */
  OptionalLong size(ObjectRef ref) throws IOException;

  /**
   * Streams {@code ref} into {@code target} (overwritten), reading at most {@code maxBytes} bytes.
   *
   * @return the number of bytes written
   * @throws ObjectNotFoundException if the object (or its version, or its bucket) does not exist
   * @throws ObjectTooLargeException if the object is larger than {@code maxBytes}
   * @throws IOException on I/O trouble reading the store or writing {@code target}
   */
  long download(ObjectRef ref, Path target, long maxBytes) throws IOException;

  /**
   * Writes the content of {@code source} to {@code ref} with the given {@code Content-Type}.
   *
   * @throws IOException on I/O trouble reading {@code source} or reaching the store
   */
  void upload(Path source, ObjectRef ref, String contentType) throws IOException;
}
