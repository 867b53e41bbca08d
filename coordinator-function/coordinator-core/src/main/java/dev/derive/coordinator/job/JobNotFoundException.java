package dev.derive.coordinator.job;

import dev.derive.coordinator.CoordinatorException;

/** Thrown when no job and no derivative has the requested id. */
public class JobNotFoundException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "not-found";

  /** Names the id. */
  public JobNotFoundException(String id) {
    super(KIND, "no derivative or job with id '" + id + "'");
  }
}
