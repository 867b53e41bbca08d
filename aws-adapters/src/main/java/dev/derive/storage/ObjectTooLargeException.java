package dev.derive.storage;

import dev.derive.protocol.message.ObjectRef;

/** The object a step reads is larger than the configured limit (env {@code MAX_SOURCE_BYTES}). */
public class ObjectTooLargeException extends RuntimeException {
  /**
   * @param ref the object
   * @param maxBytes the limit in bytes that it exceeds
   */
  public ObjectTooLargeException(ObjectRef ref, long maxBytes) {
    super(ObjectNames.forUsers(ref) + " is larger than the limit of " + maxBytes + " bytes");
  }
}
