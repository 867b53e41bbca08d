package dev.derive.protocol.capability;

import java.util.List;
import java.util.Optional;

/**
 * One operation a capability offers, with the parameters it takes.
 *
 * @param name operation name, e.g. {@code resize}
 * @param description one line for {@code GET /v1/capabilities}
 * @param parameters the parameters it accepts; any other parameter is rejected
 */
public record OperationDescriptor(
    String name, String description, List<ParameterDescriptor> parameters) {
  public OperationDescriptor {
    parameters = List.copyOf(parameters);
  }

  /** Returns the parameter called {@code name}, if the operation declares one. */
  public Optional<ParameterDescriptor> parameter(String name) {
    return parameters.stream().filter(p -> p.name().equals(name)).findFirst();
  }
}
