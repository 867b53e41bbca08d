package dev.derive.coordinator.dispatch;

import dev.derive.coordinator.CoordinatorException;

/** Thrown when a step could not be sent to its capability's queue; worth retrying. */
public class DispatchFailedException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "dispatch-failed";

  /** Names the job and step and keeps the cause. */
  public DispatchFailedException(String message, Throwable cause) {
    super(KIND, message, cause);
  }
}
