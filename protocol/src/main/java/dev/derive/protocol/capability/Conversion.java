package dev.derive.protocol.capability;

import java.util.List;

/**
 * One source-to-target media type pair a capability converts, in the spirit of Alfresco's {@code
 * supportedSourceAndTargetList}, with the operations one step applies to do it.
 *
 * @param source media type read
 * @param target media type written
 * @param cost relative cost the planner minimises over a chain (1 = cheap)
 * @param operations names of the capability's operations a step performing this conversion applies,
 *     in order; operations marked {@link OperationDescriptor#optional()} are left out when the
 *     request does not ask for them
 */
public record Conversion(String source, String target, int cost, List<String> operations) {
  public Conversion {
    operations = List.copyOf(operations);
    if (cost < 1) {
      throw new IllegalArgumentException("cost must be at least 1: " + cost);
    }
    if (operations.isEmpty()) {
      throw new IllegalArgumentException("a conversion applies at least one operation");
    }
  }
}
