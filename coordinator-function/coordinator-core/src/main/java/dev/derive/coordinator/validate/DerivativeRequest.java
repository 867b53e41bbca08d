package dev.derive.coordinator.validate;

import java.util.List;

/**
 * A validated {@code POST /v1/derivatives} body: exactly one of {@code target} and {@code steps}.
 *
 * @param source the source object
 * @param target what to derive from it, or {@code null} when explicit steps are given
 * @param steps explicit operations in order, or empty when a target is given
 * @param waitSeconds how long the request may wait for the derivative, 0 to 25 seconds
 * @param callback the URL to call back when the derivative is done ({@link CallbackUrlPolicy}), or
 *     {@code null}
 */
public record DerivativeRequest(
    SourceSpec source, TargetSpec target, List<StepSpec> steps, int waitSeconds, String callback) {
  public DerivativeRequest {
    steps = steps == null ? List.of() : List.copyOf(steps);
  }

  /** A request without a callback. */
  public DerivativeRequest(
      SourceSpec source, TargetSpec target, List<StepSpec> steps, int waitSeconds) {
    this(source, target, steps, waitSeconds, null);
  }

  /** A request for {@code target} that does not wait. */
  public DerivativeRequest(SourceSpec source, TargetSpec target) {
    this(source, target, List.of(), 0);
  }
}
