package dev.derive.coordinator.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.PinnedObject;
import java.util.List;
import java.util.Map;

/**
 * One step of a plan: the fused operations of one capability.
 *
 * @param capability capability that runs the step, e.g. {@code image}
 * @param operations operations with every parameter normalised and defaults filled in
 * @param inputMediaType media type the step reads
 * @param outputMediaType media type the step writes
 * @param output where the step writes (content-addressed), or {@code null} before addressing
 * @param objects the other objects of the source bucket the step reads, by the name of the
 *     parameter declared {@code sourceObject} that names each, as found when the plan was made
 *     ({@link SourceObjects}); part of the fingerprint; empty for most steps
 */
public record PlannedStep(
    String capability,
    List<Operation> operations,
    String inputMediaType,
    String outputMediaType,
    ObjectRef output,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, PinnedObject> objects) {
  public PlannedStep {
    operations = List.copyOf(operations);
    objects = objects == null ? Map.of() : Map.copyOf(objects);
  }

  /** A step that reads nothing but its input. */
  public PlannedStep(
      String capability,
      List<Operation> operations,
      String inputMediaType,
      String outputMediaType,
      ObjectRef output) {
    this(capability, operations, inputMediaType, outputMediaType, output, Map.of());
  }

  /** This step writing to {@code newOutput}. */
  public PlannedStep withOutput(ObjectRef newOutput) {
    return new PlannedStep(
        capability, operations, inputMediaType, outputMediaType, newOutput, objects);
  }

  /** This step reading {@code pinned} beside its input. */
  public PlannedStep withObjects(Map<String, PinnedObject> pinned) {
    return new PlannedStep(capability, operations, inputMediaType, outputMediaType, output, pinned);
  }
}
