package dev.derive.coordinator.plan;

import dev.derive.coordinator.identity.SourceNotFoundException;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.PinnedObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The parameters the declarations say name another object of the source bucket ({@code
 * "sourceObject": true}, e.g. a watermark), and their pinning: each such value of a planned step is
 * looked up as it is now, and the step carries its identity ({@link PlannedStep#objects}), which
 * the fingerprint and the step message then hold. No capability or parameter is named here.
 */
public final class SourceObjects {
  /** Finds an object of the source bucket by key: pinned to its version or ETag, or empty. */
  @FunctionalInterface
  public interface Lookup {
    Optional<PinnedObject> find(String key);
  }

  /** A lookup for plans that name no other object; one that does is a programming error. */
  public static final Lookup NONE =
      key -> {
        throw new IllegalStateException("no lookup of source objects was given for " + key);
      };

  /** {@code capability/operation/parameter} of every parameter declared {@code sourceObject}. */
  private final Set<String> declared = new HashSet<>();

  SourceObjects(List<CapabilityDescriptor> capabilities) {
    for (CapabilityDescriptor capability : capabilities) {
      for (OperationDescriptor operation : capability.operations()) {
        for (ParameterDescriptor parameter : operation.parameters()) {
          if (parameter.namesSourceObject()) {
            declared.add(capability.name() + "/" + operation.name() + "/" + parameter.name());
          }
        }
      }
    }
  }

  /**
   * {@code steps}, each with the objects its parameters name pinned as {@code lookup} finds them.
   *
   * @param pointer the JSON pointer of the request member that gave a parameter, by its name
   * @throws SourceNotFoundException if a named object does not exist, at that pointer
   */
  List<PlannedStep> pin(List<PlannedStep> steps, Lookup lookup, Function<String, String> pointer) {
    if (declared.isEmpty()) {
      return steps;
    }
    List<PlannedStep> pinned = new ArrayList<>();
    for (PlannedStep step : steps) {
      Map<String, PinnedObject> objects = new TreeMap<>();
      for (Operation operation : step.operations()) {
        operation
            .params()
            .forEach(
                (name, value) -> {
                  if (value instanceof String key
                      && declared.contains(
                          step.capability() + "/" + operation.operation() + "/" + name)) {
                    objects.put(
                        name,
                        lookup
                            .find(key)
                            .orElseThrow(
                                () -> new SourceNotFoundException(key, pointer.apply(name), true)));
                  }
                });
      }
      pinned.add(objects.isEmpty() ? step : step.withObjects(objects));
    }
    return pinned;
  }
}
