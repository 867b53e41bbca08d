package dev.derive.protocol.message;

import java.util.Objects;

/**
 * Why a step failed.
 *
 * @param type stable, machine-readable error kind, e.g. {@code corrupt-input}; see {@link
 *     StepErrorTypes}
 * @param detail human-readable explanation for the API's problem detail
 * @param retryable whether a new request for the same derivative may succeed (the claim of a FAILED
 *     job is only taken over when this is true)
 */
public record StepError(String type, String detail, boolean retryable) {
  public StepError {
    Objects.requireNonNull(type, "type");
  }
}
