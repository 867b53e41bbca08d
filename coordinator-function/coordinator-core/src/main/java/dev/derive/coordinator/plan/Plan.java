package dev.derive.coordinator.plan;

import java.util.List;

/**
 * The steps that turn a source into the requested derivative, in order; step {@code i + 1} reads
 * what step {@code i} wrote.
 *
 * @param fingerprint the derivative's fingerprint (the job id)
 * @param steps at least one step, each with its content-addressed output
 */
public record Plan(String fingerprint, List<PlannedStep> steps) {
  public Plan {
    steps = List.copyOf(steps);
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("a plan has at least one step");
    }
  }

  /** The step at {@code index} (0-based). */
  public PlannedStep step(int index) {
    return steps.get(index);
  }

  /** The number of steps. */
  public int size() {
    return steps.size();
  }

  /** Whether {@code index} is the last step's index. */
  public boolean isLast(int index) {
    return index == steps.size() - 1;
  }

  /** This plan with step {@code index} writing (or having written) {@code output} instead. */
  public Plan withStepOutput(int index, dev.derive.protocol.message.ObjectRef output) {
    List<PlannedStep> changed = new java.util.ArrayList<>(steps);
    changed.set(index, steps.get(index).withOutput(output));
    return new Plan(fingerprint, changed);
  }
}
