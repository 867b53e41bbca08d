package dev.derive.protocol.capability;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One parameter an operation accepts (or one option a request's target accepts).
 *
 * @param name parameter name as it appears in requests
 * @param type {@code integer}, {@code string} or {@code boolean}
 * @param minimum smallest allowed integer, or {@code null}
 * @param maximum largest allowed integer, or {@code null}
 * @param allowedValues allowed strings, or empty for any
 * @param pattern regular expression (Java syntax, whole value) a string must match, or {@code null}
 * @param defaultValue value filled in when the request omits it, or {@code null} if the parameter
 *     is optional without a default
 * @param description one line for {@code GET /v1/capabilities}
 * @param multipleOf the step an integer takes from {@code minimum} (e.g. {@code 90} for 90, 180,
 *     270), or {@code null} for every integer in range
 * @param required {@code true} if an explicit step must give it (the worker has no value to fall
 *     back on), {@code null} otherwise
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ParameterDescriptor(
    String name,
    String type,
    Integer minimum,
    Integer maximum,
    List<String> allowedValues,
    String pattern,
    Object defaultValue,
    String description,
    Integer multipleOf,
    Boolean required) {
  public ParameterDescriptor {
    allowedValues = List.copyOf(allowedValues);
    if (Boolean.FALSE.equals(required)) {
      required = null; // one spelling of "optional", so the JSON of GET /v1/capabilities omits it
    }
    if (multipleOf != null && (multipleOf < 1 || minimum == null || minimum % multipleOf != 0)) {
      throw new IllegalArgumentException(
          name + ": multipleOf needs a minimum that is a multiple of it, got " + multipleOf);
    }
  }

  /** Whether an explicit step must give this parameter. */
  public boolean mustBeGiven() {
    return Boolean.TRUE.equals(required);
  }

  /** This parameter, required in explicit steps. */
  public ParameterDescriptor asRequired() {
    return new ParameterDescriptor(
        name,
        type,
        minimum,
        maximum,
        allowedValues,
        pattern,
        defaultValue,
        description,
        multipleOf,
        true);
  }

  /**
   * An integer parameter taking {@code minimum}, {@code minimum + step}, … up to {@code maximum}
   * (e.g. a rotation of 90, 180 or 270 degrees).
   */
  public static ParameterDescriptor steppedInteger(
      String name, int minimum, int maximum, int step, String description) {
    return new ParameterDescriptor(
        name, "integer", minimum, maximum, List.of(), null, null, description, step, null);
  }

  /** An integer parameter between {@code minimum} and {@code maximum} inclusive. */
  public static ParameterDescriptor integer(
      String name, int minimum, int maximum, Integer defaultValue, String description) {
    return new ParameterDescriptor(
        name, "integer", minimum, maximum, List.of(), null, defaultValue, description, null, null);
  }

  /** A string parameter taking one of {@code allowedValues}. */
  public static ParameterDescriptor choice(
      String name, List<String> allowedValues, String defaultValue, String description) {
    return new ParameterDescriptor(
        name, "string", null, null, allowedValues, null, defaultValue, description, null, null);
  }

  /** A string parameter matching {@code pattern} (whole value). */
  public static ParameterDescriptor text(
      String name, String pattern, String defaultValue, String description) {
    return new ParameterDescriptor(
        name, "string", null, null, List.of(), pattern, defaultValue, description, null, null);
  }

  /** A boolean parameter. */
  public static ParameterDescriptor bool(String name, boolean defaultValue, String description) {
    return new ParameterDescriptor(
        name, "boolean", null, null, List.of(), null, defaultValue, description, null, null);
  }

  /**
   * A boolean parameter without a declared default: a step that leaves it out keeps its
   * fingerprint, and the worker reads it as {@code false}.
   */
  public static ParameterDescriptor flag(String name, String description) {
    return new ParameterDescriptor(
        name, "boolean", null, null, List.of(), null, null, description, null, null);
  }
}
