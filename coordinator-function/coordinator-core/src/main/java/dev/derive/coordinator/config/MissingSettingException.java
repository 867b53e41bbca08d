package dev.derive.coordinator.config;

/** Thrown at start-up when a required setting (environment variable) is unset or invalid. */
public class MissingSettingException extends RuntimeException {
  /** Names the missing variable, or explains why its value is invalid. */
  public MissingSettingException(String nameOrExplanation) {
    super(
        nameOrExplanation.contains(" ")
            ? nameOrExplanation
            : "required setting " + nameOrExplanation + " is not set");
  }
}
