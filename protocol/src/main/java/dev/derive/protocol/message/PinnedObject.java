package dev.derive.protocol.message;

import java.util.Objects;

/**
 * Another object a step reads beside its input (a parameter declared {@code sourceObject}, e.g. a
 * watermark), as the coordinator found it: the worker reads it with {@code If-Match: etag}, so
 * bytes other than the ones in the derivative's fingerprint are never used.
 *
 * @param ref the object (with its version id in a versioned bucket)
 * @param etag the ETag it had when the request was accepted
 */
public record PinnedObject(ObjectRef ref, String etag) {
  public PinnedObject {
    Objects.requireNonNull(ref, "ref");
  }
}
