package dev.derive.protocol.capability;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A rule over several parameters of one operation that no single parameter can say, such as "a
 * resize needs a width or a height". {@link RequestSchema} writes each as JSON Schema, so a request
 * breaking it is refused with 400 before any worker sees it.
 *
 * @param rule what must hold for the named parameters
 * @param names the parameters, at least two, each a parameter of the operation
 */
public record ParameterGroup(Rule rule, List<String> names) {
  /** What a {@link ParameterGroup} asks of its parameters. */
  public enum Rule {
    /** At least one of them is given (JSON Schema {@code anyOf} of {@code required}). */
    @JsonProperty("atLeastOne")
    AT_LEAST_ONE,
    /** Either all of them are given or none (JSON Schema {@code dependentRequired}). */
    @JsonProperty("allOrNone")
    ALL_OR_NONE,
    /** At most one of them is given ({@code not} {@code required} of each pair). */
    @JsonProperty("atMostOne")
    AT_MOST_ONE
  }

  public ParameterGroup {
    names = List.copyOf(names);
    if (names.size() < 2) {
      throw new IllegalArgumentException("a parameter group names at least two: " + names);
    }
  }
}
