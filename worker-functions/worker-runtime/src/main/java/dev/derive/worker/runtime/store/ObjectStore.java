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
   * Streams {@code ref} into {@code target} as {@link #download(ObjectRef, Path, long)} does, but
   * only while the object still has the entity tag {@code ifMatchEtag} (S3 {@code If-Match}).
   *
   * <p>The default serves stores that cannot check a tag only for {@code ifMatchEtag == null}.
   *
   * @param ifMatchEtag the ETag the object must have, as S3 reports it (quotes included), or {@code
   *     null} for no condition
   * @return the number of bytes written
   * @throws ObjectChangedException if the object no longer has that ETag
   * @throws ObjectNotFoundException if the object (or its version, or its bucket) does not exist
   * @throws ObjectTooLargeException if the object is larger than {@code maxBytes}
   * @throws UnsupportedOperationException if a tag is given and this store cannot check it
   * @throws IOException on I/O trouble reading the store or writing {@code target}
   */
  default long download(ObjectRef ref, String ifMatchEtag, Path target, long maxBytes)
      throws IOException {
    if (ifMatchEtag != null) {
      throw new UnsupportedOperationException(
          getClass().getSimpleName() + " cannot read an object on condition of its ETag");
    }
    return download(ref, target, maxBytes);
  }

  /**
   * Writes the content of {@code source} to {@code ref} with the given {@code Content-Type}.
   *
   * @throws IOException on I/O trouble reading {@code source} or reaching the store
   */
  void upload(Path source, ObjectRef ref, String contentType) throws IOException;
}
