package dev.derive.coordinator.job;

import dev.derive.coordinator.CoordinatorException;
import dev.derive.protocol.identity.Fingerprint;

/** Thrown when no job and no derivative has the requested id. */
public class JobNotFoundException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "not-found";

  /** Names the id when it is a fingerprint; anything else from the path is not echoed. */
  public JobNotFoundException(String id) {
    super(
        KIND,
        Fingerprint.isWellFormed(id)
            ? "no derivative or job with id '" + id + "'"
            : "no derivative or job has that id: ids are fingerprints of 64 hex digits");
  }
}
