package dev.derive.coordinator.validate;

/**
 * A validated {@code POST /v1/derivatives} body.
 *
 * @param source the source object
 * @param target what to derive from it
 */
public record DerivativeRequest(SourceSpec source, TargetSpec target) {}
