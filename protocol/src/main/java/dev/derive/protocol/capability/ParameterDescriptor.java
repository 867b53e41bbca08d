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
    String description) {
  public ParameterDescriptor {
    allowedValues = List.copyOf(allowedValues);
  }

  /** An integer parameter between {@code minimum} and {@code maximum} inclusive. */
  public static ParameterDescriptor integer(
      String name, int minimum, int maximum, Integer defaultValue, String description) {
    return new ParameterDescriptor(
        name, "integer", minimum, maximum, List.of(), null, defaultValue, description);
  }

  /** A string parameter taking one of {@code allowedValues}. */
  public static ParameterDescriptor choice(
      String name, List<String> allowedValues, String defaultValue, String description) {
    return new ParameterDescriptor(
        name, "string", null, null, allowedValues, null, defaultValue, description);
  }

  /** A string parameter matching {@code pattern} (whole value). */
  public static ParameterDescriptor text(
      String name, String pattern, String defaultValue, String description) {
    return new ParameterDescriptor(
        name, "string", null, null, List.of(), pattern, defaultValue, description);
  }

  /** A boolean parameter. */
  public static ParameterDescriptor bool(String name, boolean defaultValue, String description) {
    return new ParameterDescriptor(
        name, "boolean", null, null, List.of(), null, defaultValue, description);
  }
}
