package dev.derive.protocol.capability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The JSON Schema of declared parameters, for {@link RequestSchema}: one parameter's type, bounds,
 * step, allowed values, pattern, default and examples ({@link ParameterDescriptor}); an operation's
 * {@code params} object with its required members; and each {@link ParameterGroup} rule as the
 * keywords that say it.
 */
public final class ParameterSchema {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ParameterSchema() {}

  /** The schema of one parameter or target option (without its requiredness). */
  public static ObjectNode parameter(ParameterDescriptor parameter) {
    ObjectNode schema = NODES.objectNode();
    schema.put("type", parameter.type());
    if (parameter.minimum() != null) {
      schema.put("minimum", parameter.minimum());
    }
    if (parameter.maximum() != null) {
      schema.put("maximum", parameter.maximum());
    }
    if (parameter.multipleOf() != null) {
      schema.put("multipleOf", parameter.multipleOf());
    }
    if (!parameter.allowedValues().isEmpty()) {
      ArrayNode values = schema.putArray("enum");
      parameter.allowedValues().forEach(values::add);
    }
    if (parameter.pattern() != null) {
      schema.put("pattern", anchored(parameter.pattern()));
    }
    if (parameter.defaultValue() != null) {
      schema.set("default", scalar(parameter.defaultValue()));
    }
    if (parameter.description() != null) {
      schema.put("description", parameter.description());
    }
    if (!parameter.examples().isEmpty()) {
      ArrayNode examples = schema.putArray("examples");
      parameter.examples().forEach(examples::add);
    }
    return schema;
  }

  /**
   * {@code pattern} (a Java regular expression the whole value must match) as a JSON Schema
   * pattern, which matches anywhere unless anchored (ECMA-262 semantics).
   */
  public static String anchored(String pattern) {
    return "^(?:" + pattern + ")$";
  }

  private static JsonNode scalar(Object value) {
    return switch (value) {
      case Integer i -> NODES.numberNode(i);
      case Boolean b -> NODES.booleanNode(b);
      case String s -> NODES.textNode(s);
      default ->
          throw new IllegalArgumentException(
              "a declared default is an integer, boolean or string, not " + value.getClass());
    };
  }

  /** The schema of an operation's {@code params}: each parameter, the required ones, its groups. */
  static ObjectNode params(OperationDescriptor operation) {
    ObjectNode params = NODES.objectNode().put("type", "object");
    ObjectNode properties = params.putObject("properties");
    ArrayNode required = NODES.arrayNode();
    for (ParameterDescriptor p : operation.parameters()) {
      properties.set(p.name(), parameter(p));
      if (p.mustBeGiven()) {
        required.add(p.name());
      }
    }
    if (!required.isEmpty()) {
      params.set("required", required);
    }
    params.put("additionalProperties", false);
    if (!operation.groups().isEmpty()) {
      ArrayNode rules = params.putArray("allOf");
      operation.groups().forEach(g -> rules.add(group(g)));
    }
    return params;
  }

  private static ObjectNode group(ParameterGroup group) {
    ObjectNode rule = NODES.objectNode();
    List<String> names = group.names();
    switch (group.rule()) {
      case AT_LEAST_ONE -> {
        ArrayNode anyOf = rule.putArray("anyOf");
        names.forEach(n -> anyOf.addObject().putArray("required").add(n));
      }
      case ALL_OR_NONE -> {
        ObjectNode dependent = rule.putObject("dependentRequired");
        for (String name : names) {
          ArrayNode others = dependent.putArray(name);
          names.stream().filter(n -> !n.equals(name)).forEach(others::add);
        }
      }
      case AT_MOST_ONE -> {
        ObjectNode not = rule.putObject("not");
        if (names.size() == 2) {
          not.putArray("required").add(names.get(0)).add(names.get(1));
        } else {
          ArrayNode pairs = not.putArray("anyOf");
          for (int i = 0; i < names.size(); i++) {
            for (int j = i + 1; j < names.size(); j++) {
              pairs.addObject().putArray("required").add(names.get(i)).add(names.get(j));
            }
          }
        }
      }
    }
    return rule;
  }
}
