package dev.derive.coordinator.plan;

import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import java.util.List;

/**
 * One step of a plan: the fused operations of one capability.
 *
 * @param capability capability that runs the step, e.g. {@code image}
 * @param operations operations with every parameter normalised and defaults filled in
 * @param inputMediaType media type the step reads
 * @param outputMediaType media type the step writes
 * @param output where the step writes (content-addressed), or {@code null} before addressing
 */
public record PlannedStep(
    String capability,
    List<Operation> operations,
    String inputMediaType,
    String outputMediaType,
    ObjectRef output) {
  public PlannedStep {
    operations = List.copyOf(operations);
  }

  /** This step writing to {@code newOutput}. */
  public PlannedStep withOutput(ObjectRef newOutput) {
    return new PlannedStep(capability, operations, inputMediaType, outputMediaType, newOutput);
  }
}
