package dev.derive.protocol.capability;

/**
 * One source-to-target media type pair a capability converts, in the spirit of Alfresco's {@code
 * supportedSourceAndTargetList}.
 *
 * @param source media type read
 * @param target media type written
 * @param cost relative cost the planner minimises over a chain (1 = cheap)
 */
public record Conversion(String source, String target, int cost) {}
