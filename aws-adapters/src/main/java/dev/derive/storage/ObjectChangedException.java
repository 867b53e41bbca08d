package dev.derive.storage;

import dev.derive.protocol.message.ObjectRef;

/**
 * The object a step reads no longer has the ETag it was read for ({@code If-Match} failed with 412
 * Precondition Failed): it was overwritten after the coordinator identified it.
 */
public class ObjectChangedException extends RuntimeException {
  private final ObjectRef ref;
  private final String expectedEtag;

  /**
   * @param ref the object
   * @param expectedEtag the ETag it was expected to have
   * @param cause the store's answer, kept for logs
   */
  public ObjectChangedException(ObjectRef ref, String expectedEtag, Throwable cause) {
    super(ObjectNames.forUsers(ref) + " no longer has ETag " + expectedEtag, cause);
    this.ref = ref;
    this.expectedEtag = expectedEtag;
  }

  /** The object that changed. */
  public ObjectRef ref() {
    return ref;
  }

  /** The ETag it was expected to have. */
  public String expectedEtag() {
    return expectedEtag;
  }
}
