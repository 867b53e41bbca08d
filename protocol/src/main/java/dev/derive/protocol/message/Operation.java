package dev.derive.protocol.message;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One operation of a capability with its normalised parameters, e.g. {@code resize} with {@code
 * {"width":256,"height":256,"fit":"inside"}}. Parameter values are strings, integers or booleans;
 * the coordinator fills in defaults before an operation is fingerprinted or sent.
 *
 * @param operation operation name as declared by the capability
 * @param params parameter name to value, sorted by name
 */
public record Operation(String operation, Map<String, Object> params) {
  public Operation {
    Objects.requireNonNull(operation, "operation");
    params =
        params == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(params));
  }

  /** Returns the integer parameter {@code name}, or {@code fallback} when absent. */
  public int intParam(String name, int fallback) {
    Object value = params.get(name);
    return value instanceof Number n ? n.intValue() : fallback;
  }

  /** Returns the string parameter {@code name}, or {@code fallback} when absent. */
  public String stringParam(String name, String fallback) {
    Object value = params.get(name);
    return value == null ? fallback : value.toString();
  }

  /** Returns the boolean parameter {@code name}, or {@code fallback} when absent. */
  public boolean booleanParam(String name, boolean fallback) {
    Object value = params.get(name);
    return value instanceof Boolean b ? b : fallback;
  }
}
