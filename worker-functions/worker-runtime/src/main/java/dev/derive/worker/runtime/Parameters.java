package dev.derive.worker.runtime;

import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import dev.derive.protocol.capability.ParameterValues;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The parameters of one operation of a {@link DeclaredStep}, already checked against the
 * capability's declaration, typed, with the declared defaults standing in for what the step leaves
 * out. A transformer reads them by name and repeats no range, default or allowed value; asking for
 * a name the operation does not declare is a programming error ({@link IllegalArgumentException}),
 * so a worker cannot drift from its declaration unnoticed.
 */
public final class Parameters {
  private final OperationDescriptor operation;
  private final Map<String, Object> given;
  private final String outputMediaType;

  /**
   * @param outputMediaType the step's output, which picks a parameter's {@link
   *     ParameterDescriptor#outputDefaults} entry
   */
  Parameters(OperationDescriptor operation, Map<String, Object> given, String outputMediaType) {
    this.operation = operation;
    this.given = Map.copyOf(given);
    this.outputMediaType = outputMediaType;
  }

  /** The operation's name. */
  public String operation() {
    return operation.name();
  }

  /** Whether the operation's output is also the step's summary ({@code "summary": true}). */
  boolean summarises() {
    return operation.summary();
  }

  /** Whether the step gave {@code name} itself (not its default). */
  public boolean has(String name) {
    declared(name);
    return given.containsKey(name);
  }

  /**
   * The integer {@code name}: given or its default.
   *
   * @throws IllegalStateException if it has neither (read it with {@link #optionalInteger})
   */
  public int integer(String name) {
    return optionalInteger(name)
        .orElseThrow(() -> new IllegalStateException(absent(name, "optionalInteger")));
  }

  /** The integer {@code name}, given or its default; empty when it has neither. */
  public OptionalInt optionalInteger(String name) {
    Object value = value(name, ParameterDescriptor.INTEGER);
    return value == null ? OptionalInt.empty() : OptionalInt.of(ParameterValues.wholeNumber(value));
  }

  /**
   * The string {@code name}: given or its default.
   *
   * @throws IllegalStateException if it has neither (read it with {@link #optionalString})
   */
  public String string(String name) {
    return optionalString(name)
        .orElseThrow(() -> new IllegalStateException(absent(name, "optionalString")));
  }

  /** The string {@code name}, given or its default; empty when it has neither. */
  public Optional<String> optionalString(String name) {
    return Optional.ofNullable((String) value(name, ParameterDescriptor.STRING));
  }

  /** The boolean {@code name}: given, else its default, else {@code false}. */
  public boolean bool(String name) {
    return Boolean.TRUE.equals(value(name, ParameterDescriptor.BOOLEAN));
  }

  private Object value(String name, String type) {
    ParameterDescriptor parameter = declared(name);
    if (!parameter.type().equals(type)) {
      throw new IllegalArgumentException(
          operation.name() + "." + name + " is declared " + parameter.type() + ", not " + type);
    }
    Object value = given.get(name);
    return value == null ? parameter.defaultFor(outputMediaType) : value;
  }

  private ParameterDescriptor declared(String name) {
    return operation
        .parameter(name)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "the operation " + operation.name() + " declares no parameter " + name));
  }

  private String absent(String name, String instead) {
    return operation.name()
        + "."
        + name
        + " was not given and declares no default: read it with "
        + instead;
  }

  @Override
  public String toString() {
    return operation.name() + given;
  }
}
