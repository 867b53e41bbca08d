package dev.derive.storage;

import dev.derive.protocol.message.ObjectRef;

/**
 * The object a step reads does not exist (deleted, wrong version, or no such bucket). The message
 * becomes a job's error detail, which clients read: it names the key and version, never the bucket
 * (whose name holds the account id); the cause, for logs, has the rest.
 */
public class ObjectNotFoundException extends RuntimeException {
  /**
   * @param ref the object that was not found
   */
  public ObjectNotFoundException(ObjectRef ref, Throwable cause) {
    super("no such object " + ObjectNames.forUsers(ref), cause);
  }
}
