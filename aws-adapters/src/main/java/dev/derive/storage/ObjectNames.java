package dev.derive.storage;

import dev.derive.protocol.message.ObjectRef;

/** How an object is named in what a client may read: an error detail, a problem, an event. */
final class ObjectNames {
  private ObjectNames() {}

  /**
   * {@code 'key'}, or {@code 'key' (version v)}: never the bucket, whose name holds the account id
   * ({@code <stack>-source-<account>}), nor an {@code s3://} URI.
   */
  static String forUsers(ObjectRef ref) {
    return "'"
        + ref.key()
        + "'"
        + (ref.versionId() == null ? "" : " (version " + ref.versionId() + ")");
  }
}
