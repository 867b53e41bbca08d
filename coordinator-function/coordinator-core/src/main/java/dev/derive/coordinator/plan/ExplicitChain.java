package dev.derive.coordinator.plan;

import static dev.derive.coordinator.plan.OperationParameters.MEDIA_TYPE;

import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.StepSpec;
import dev.derive.coordinator.validate.Violation;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.Conversion;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.message.Operation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks explicit steps against the capability declarations and turns them into planned steps
 * (outputs not yet addressed).
 *
 * <p>Adjacent entries of one capability are fused into one step, whose conversion is the one of
 * that capability reading the previous output and applying those operations in declared order
 * (writing the {@code mediaType} parameter if one is given, else keeping the media type if the
 * capability can, else its first declared target). Operations a conversion always applies are added
 * with their defaults, so a plan spelled out fully and one relying on defaults are the same plan.
 */
final class ExplicitChain {
  private final ConversionGraph graph;

  ExplicitChain(ConversionGraph graph) {
    this.graph = graph;
  }

  /**
   * The steps {@code specs} spell out, run on a source of {@code sourceType}.
   *
   * @throws IllegalArgumentException if {@code specs} is empty
   * @throws NoConversionException if a step cannot read what the step before it writes
   * @throws InvalidRequestException if a capability is unknown or a step's operations cannot run
   *     together
   */
  List<PlannedStep> steps(String sourceType, List<StepSpec> specs) {
    if (specs.isEmpty()) {
      throw new IllegalArgumentException("explicit steps are at least one");
    }
    List<PlannedStep> steps = new ArrayList<>();
    String current = sourceType;
    int first = 0;
    while (first < specs.size()) {
      int end = first;
      while (end < specs.size()
          && specs.get(end).capability().equals(specs.get(first).capability())) {
        end++;
      }
      PlannedStep step = step(sourceType, current, specs, first, end);
      steps.add(step);
      current = step.outputMediaType();
      first = end;
    }
    return steps;
  }

  /**
   * The one step fusing {@code specs[first, end)}, all of one capability, reading {@code input}.
   */
  private PlannedStep step(
      String sourceType, String input, List<StepSpec> specs, int first, int end) {
    String pointer = "/steps/" + first;
    CapabilityDescriptor capability =
        graph
            .capability(specs.get(first).capability())
            .orElseThrow(
                () ->
                    new InvalidRequestException(
                        List.of(new Violation(pointer + "/capability", "unknown capability"))));
    Map<String, StepSpec> given = new LinkedHashMap<>();
    for (int i = first; i < end; i++) {
      if (given.put(specs.get(i).operation(), specs.get(i)) != null) {
        throw new InvalidRequestException(
            List.of(
                new Violation(
                    "/steps/" + i + "/operation",
                    "repeats operation "
                        + specs.get(i).operation()
                        + " within one step of "
                        + capability.name())));
      }
    }
    String wanted = null;
    for (StepSpec spec : given.values()) {
      Object mediaType = spec.params().get(MEDIA_TYPE);
      if (mediaType != null) {
        wanted = mediaType.toString();
      }
    }
    Conversion chosen = null;
    for (Conversion conversion : capability.conversions()) {
      if (!conversion.source().equals(input)
          || !inOrder(conversion.operations(), List.copyOf(given.keySet()))
          || (wanted != null && !conversion.target().equals(wanted))) {
        continue;
      }
      if (chosen == null || (conversion.target().equals(input) && !chosen.target().equals(input))) {
        chosen = conversion;
      }
    }
    if (chosen == null) {
      throw refusal(capability, sourceType, input, specs, first, end, wanted);
    }
    List<Operation> operations = new ArrayList<>();
    for (String name : chosen.operations()) {
      OperationDescriptor operation = capability.operation(name).orElseThrow();
      StepSpec spec = given.get(name);
      if (spec == null && operation.optional()) {
        continue;
      }
      operations.add(
          OperationParameters.complete(
              operation, spec == null ? Map.of() : spec.params(), chosen.target()));
    }
    return new PlannedStep(capability.name(), operations, input, chosen.target(), null);
  }

  /**
   * Why no conversion of {@code capability} applies {@code specs[first, end)} to {@code input}: it
   * does not read the input (422), the operations are out of its declared order (400 at the one out
   * of place), or it does not write the wanted type from the input (422); otherwise its conversions
   * from the input.
   */
  private RuntimeException refusal(
      CapabilityDescriptor capability,
      String sourceType,
      String input,
      List<StepSpec> specs,
      int first,
      int end,
      String wanted) {
    String pointer = "/steps/" + first;
    String name = capability.name();
    if (!capability.reads().contains(input)) {
      return NoConversionException.forSteps(
          pointer
              + ": capability "
              + name
              + " does not read "
              + input
              + (first == 0 ? " (the source)" : " (what /steps/" + (first - 1) + " writes)")
              + "; it reads "
              + capability.reads(),
          sourceType,
          graph.reachable(sourceType));
    }
    List<String> declared =
        capability.operations().stream().map(OperationDescriptor::name).toList();
    int latest = first;
    for (int i = first; i < end; i++) {
      String operation = specs.get(i).operation();
      if (!declared.contains(operation)) {
        return new InvalidRequestException(
            List.of(
                new Violation(
                    "/steps/" + i + "/operation",
                    "capability "
                        + name
                        + " has no operation "
                        + operation
                        + "; it has "
                        + declared)));
      }
      if (declared.indexOf(operation) < declared.indexOf(specs.get(latest).operation())) {
        return new InvalidRequestException(
            List.of(
                new Violation(
                    "/steps/" + i + "/operation",
                    operation
                        + " must come before "
                        + specs.get(latest).operation()
                        + ": capability "
                        + name
                        + " applies its operations in the order "
                        + String.join(", ", declared))));
      }
      latest = i;
    }
    List<String> writes =
        capability.conversions().stream()
            .filter(c -> c.source().equals(input))
            .map(Conversion::target)
            .distinct()
            .toList();
    if (wanted != null && !writes.contains(wanted)) {
      return NoConversionException.forSteps(
          pointer
              + ": capability "
              + name
              + " does not write "
              + wanted
              + " from "
              + input
              + "; it writes "
              + writes,
          sourceType,
          graph.reachable(sourceType));
    }
    return NoConversionException.forSteps(
        pointer
            + ": capability "
            + name
            + " applies "
            + specs.subList(first, end).stream().map(StepSpec::operation).toList()
            + " to "
            + input
            + (wanted == null ? "" : " writing " + wanted)
            + " in none of its conversions; from "
            + input
            + " they are "
            + capability.conversions().stream()
                .filter(c -> c.source().equals(input))
                .map(c -> c.target() + " " + c.operations())
                .toList(),
        sourceType,
        graph.reachable(sourceType));
  }

  /** Whether {@code names} all occur in {@code declared}, in the same relative order. */
  private static boolean inOrder(List<String> declared, List<String> names) {
    int at = -1;
    for (String name : names) {
      int index = declared.indexOf(name);
      if (index <= at) {
        return false;
      }
      at = index;
    }
    return true;
  }
}
