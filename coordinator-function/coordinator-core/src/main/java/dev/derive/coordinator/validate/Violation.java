package dev.derive.coordinator.validate;

/**
 * One reason a request is invalid.
 *
 * @param pointer RFC 6901 JSON pointer to the offending member, e.g. {@code /target/width} ({@code
 *     ""} for the whole body)
 * @param detail what is wrong with it, for a human
 */
public record Violation(String pointer, String detail) {}
