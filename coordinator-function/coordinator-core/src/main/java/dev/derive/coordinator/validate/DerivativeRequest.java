package dev.derive.coordinator.validate;

import java.util.List;
import java.util.Objects;

/**
 * A validated {@code POST /v1/derivatives} body.
 *
 * @param source the source object
 * @param wanted what to derive from it: a target, or explicit steps
 * @param waitSeconds how long the request may wait for the derivative, 0 to 25 seconds
 * @param callback the URL to call back when the derivative is done ({@link CallbackUrlPolicy}), or
 *     {@code null}
 */
public record DerivativeRequest(
    SourceSpec source, Wanted wanted, int waitSeconds, String callback) {

  /** What a request asks to derive: exactly one of a target and explicit steps. */
  public sealed interface Wanted {}

  /** A target the planner finds a chain to. */
  public record ForTarget(TargetSpec target) implements Wanted {
    public ForTarget {
      Objects.requireNonNull(target, "target");
    }
  }

  /** Explicit operations, in order. */
  public record ForSteps(List<StepSpec> steps) implements Wanted {
    public ForSteps {
      steps = List.copyOf(steps);
    }
  }

  public DerivativeRequest {
    Objects.requireNonNull(wanted, "wanted");
  }

  /**
   * A request for {@code target}, or, when it is {@code null}, for {@code steps} (the body's
   * members as they come).
   */
  public DerivativeRequest(
      SourceSpec source,
      TargetSpec target,
      List<StepSpec> steps,
      int waitSeconds,
      String callback) {
    this(
        source,
        target != null ? new ForTarget(target) : new ForSteps(steps == null ? List.of() : steps),
        waitSeconds,
        callback);
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

  /** The target asked for, or {@code null} when explicit steps are. */
  public TargetSpec target() {
    return wanted instanceof ForTarget t ? t.target() : null;
  }

  /** The explicit steps asked for, or empty when a target is. */
  public List<StepSpec> steps() {
    return wanted instanceof ForSteps s ? s.steps() : List.of();
  }
}
