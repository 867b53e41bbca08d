package dev.derive.storage;

import dev.derive.protocol.message.ObjectRef;

/** The object a step reads does not exist (deleted, wrong version, or no such bucket). */
public class ObjectNotFoundException extends RuntimeException {
  /**
   * @param ref the object that was not found
   */
  public ObjectNotFoundException(ObjectRef ref, Throwable cause) {
    super("no such object: " + ref, cause);
  }
}
