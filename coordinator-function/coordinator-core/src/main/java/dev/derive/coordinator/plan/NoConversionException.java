package dev.derive.coordinator.plan;

import dev.derive.coordinator.CoordinatorException;

/** Thrown when no capability converts the source's media type to the target media type. */
public class NoConversionException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "no-conversion";

  /** Names both media types. */
  public NoConversionException(String source, String target) {
    super(KIND, "no capability converts " + source + " to " + target);
  }
}
