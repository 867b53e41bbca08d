package dev.derive.protocol.capability;

import java.util.List;
import java.util.Optional;

/**
 * What one capability (one worker function) declares about itself, as data: the conversions it
 * performs, the operations it offers, and the environment variable holding its queue URL. The
 * planner and {@code GET /v1/capabilities} read the same declarations.
 *
 * @param name capability name, e.g. {@code image}
 * @param description one line for {@code GET /v1/capabilities}
 * @param queueUrlVariable name of the environment variable (defined in {@code template.yaml}) that
 *     holds the URL of this capability's SQS queue
 * @param conversions source and target media types it supports
 * @param operations operations it offers, in the order a fused step applies them
 */
public record CapabilityDescriptor(
    String name,
    String description,
    String queueUrlVariable,
    List<Conversion> conversions,
    List<OperationDescriptor> operations) {
  public CapabilityDescriptor {
    conversions = List.copyOf(conversions);
    operations = List.copyOf(operations);
    for (Conversion conversion : conversions) {
      for (String operation : conversion.operations()) {
        if (operations.stream().noneMatch(o -> o.name().equals(operation))) {
          throw new IllegalArgumentException(
              "capability " + name + " converts with undeclared operation " + operation);
        }
      }
    }
  }

  /** The media types this capability reads, in declaration order. */
  public List<String> reads() {
    return conversions.stream().map(Conversion::source).distinct().toList();
  }

  /** The media types this capability writes, in declaration order. */
  public List<String> writes() {
    return conversions.stream().map(Conversion::target).distinct().toList();
  }

  /** Returns the operation called {@code name}, if this capability offers it. */
  public Optional<OperationDescriptor> operation(String name) {
    return operations.stream().filter(o -> o.name().equals(name)).findFirst();
  }

  /** Returns whether this capability converts {@code source} to {@code target}. */
  public boolean converts(String source, String target) {
    return conversions.stream()
        .anyMatch(c -> c.source().equals(source) && c.target().equals(target));
  }
}
