package dev.derive.coordinator.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.path.NodePath;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the errors of the JSON Schema validator into Derive's {@link Violation}s: one per JSON
 * pointer (RFC 6901), worded for a person and from the schema's own numbers (bounds, allowed
 * values), the way {@code RequestValidator} worded them before the schema existed. A missing or
 * unknown member is named by its own pointer, not its parent's. The errors inside a composite rule
 * ({@code oneOf}, {@code anyOf}, {@code not} over {@code required}) are folded into one sentence
 * about the rule. Written for the schemas {@code RequestSchema} generates, whose composites are
 * only these.
 */
final class SchemaViolations {
  private final JsonNode schema;

  /**
   * @param schema the schema the errors come from, to read bounds and allowed values
   */
  SchemaViolations(JsonNode schema) {
    this.schema = schema;
  }

  /** The violations {@code errors} stand for, at most one per pointer, in the errors' order. */
  List<Violation> of(List<Error> errors) {
    List<String> folded = new ArrayList<>();
    for (Error error : errors) {
      if (isComposite(error.getKeyword())) {
        folded.add(pointer(error.getSchemaLocation().getFragment()) + "/");
      }
    }
    Map<String, Violation> byPointer = new LinkedHashMap<>();
    for (Error error : errors) {
      String at = pointer(error.getSchemaLocation().getFragment());
      String anyOf = enclosingAnyOf(at);
      Violation violation;
      if (anyOf != null) {
        // the validator reports only the failed branches of an anyOf: one sentence for them all
        violation =
            new Violation(
                pointer(error.getInstanceLocation()),
                "needs at least one of " + names(schema.at(anyOf)));
      } else if (folded.stream().anyMatch(at::startsWith)) {
        continue; // a branch of a composite rule: the rule's own violation says it
      } else {
        violation = violation(error);
      }
      byPointer.putIfAbsent(violation.pointer(), violation);
    }
    return List.copyOf(byPointer.values());
  }

  /**
   * The schema pointer of the {@code anyOf} whose branch {@code at} lies in, or {@code null}; only
   * the anyOf of {@code required} branches (a {@link
   * dev.derive.protocol.capability.ParameterGroup.Rule#AT_LEAST_ONE} group) is folded so.
   */
  private String enclosingAnyOf(String at) {
    int index = at.lastIndexOf("/anyOf/");
    if (index < 0 || !at.endsWith("/required")) {
      return null;
    }
    String anyOf = at.substring(0, index + "/anyOf".length());
    return anyOf.contains("/not/") ? null : anyOf;
  }

  private static boolean isComposite(String keyword) {
    return keyword.equals("oneOf") || keyword.equals("not");
  }

  private Violation violation(Error error) {
    String where = pointer(error.getInstanceLocation());
    JsonNode rule = schema.at(pointer(error.getSchemaLocation().getFragment()));
    JsonNode owner = schema.at(pointer(error.getSchemaLocation().getFragment().getParent()));
    JsonNode value = error.getInstanceNode();
    return switch (error.getKeyword()) {
      case "type" -> new Violation(where, typeProblem(rule.asText()));
      case "required" ->
          new Violation(where + "/" + RequestValidator.escape(error.getProperty()), "is required");
      case "additionalProperties" ->
          new Violation(
              where + "/" + RequestValidator.escape(error.getProperty()), "unknown field");
      case "minimum", "maximum" ->
          new Violation(
              where,
              owner.has("multipleOf") ? stepProblem(owner, value) : rangeProblem(owner, value));
      case "multipleOf" -> new Violation(where, stepProblem(owner, value));
      case "enum" -> new Violation(where, enumProblem(rule, value));
      case "minLength" ->
          new Violation(
              where,
              rule.asInt() == 1
                  ? "must not be empty"
                  : "must be at least " + rule.asInt() + " characters");
      case "maxLength" -> new Violation(where, "must be at most " + rule.asInt() + " characters");
      case "minItems", "maxItems" ->
          new Violation(
              where,
              "must hold "
                  + owner.path("minItems").asInt()
                  + " to "
                  + owner.path("maxItems").asInt()
                  + " entries");
      case "pattern" -> new Violation(where, "must match " + unanchored(rule.asText()));
      case "oneOf" -> exactlyOne(where, rule, value);
      case "not" -> new Violation(where, "takes at most one of " + names(rule));
      case "dependentRequired" ->
          new Violation(
              where + "/" + RequestValidator.escape(error.getProperty()),
              "needs " + error.getArguments()[0] + " as well");
      default -> new Violation(where, error.getMessage());
    };
  }

  private static String typeProblem(String type) {
    return switch (type) {
      case "integer" -> "must be an integer";
      case "boolean" -> "must be true or false";
      case "object" -> "must be a JSON object";
      case "array" -> "must be an array";
      default -> "must be a " + type;
    };
  }

  private static String rangeProblem(JsonNode owner, JsonNode value) {
    return "must be between "
        + owner.path("minimum").asText()
        + " and "
        + owner.path("maximum").asText()
        + ", got "
        + plain(value);
  }

  private static String stepProblem(JsonNode owner, JsonNode value) {
    List<String> allowed = new ArrayList<>();
    long step = owner.path("multipleOf").asLong();
    for (long v = owner.path("minimum").asLong(); v <= owner.path("maximum").asLong(); v += step) {
      allowed.add(Long.toString(v));
    }
    return "must be one of " + allowed + ", got " + plain(value);
  }

  private static String enumProblem(JsonNode allowed, JsonNode value) {
    List<String> values = new ArrayList<>();
    allowed.forEach(v -> values.add(v.asText()));
    String given = value.isTextual() ? value.textValue() : value.toString();
    return "unsupported value '" + given + "'; allowed: " + values;
  }

  /**
   * The root rule "exactly one of target, steps or preset": the first member missing when none is
   * given, the second given one when several are.
   */
  private static Violation exactlyOne(String where, JsonNode alternatives, JsonNode body) {
    List<String> names = new ArrayList<>();
    alternatives.forEach(a -> names.add(a.path("required").path(0).asText()));
    List<String> given = names.stream().filter(n -> body != null && body.has(n)).toList();
    String choice =
        String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();
    if (given.isEmpty()) {
      return new Violation(where + "/" + names.getFirst(), "is required: give " + choice);
    }
    return new Violation(
        where + "/" + given.get(1),
        "give only one of " + choice + ", not " + String.join(" and ", given));
  }

  /** Every member name the {@code required} keywords under {@code rule} list, in order. */
  private static String names(JsonNode rule) {
    List<String> names = new ArrayList<>();
    collectRequired(rule, names);
    return String.join(", ", names);
  }

  private static void collectRequired(JsonNode node, List<String> names) {
    if (node.isObject() && node.has("required")) {
      node.get("required")
          .forEach(
              n -> {
                if (!names.contains(n.asText())) {
                  names.add(n.asText());
                }
              });
    }
    node.forEach(child -> collectRequired(child, names));
  }

  private static String plain(JsonNode value) {
    if (value != null && value.isNumber()) {
      BigDecimal number = value.decimalValue();
      return number.stripTrailingZeros().scale() <= 0
          ? number.toBigInteger().toString()
          : number.toPlainString();
    }
    return String.valueOf(value);
  }

  private static String unanchored(String pattern) {
    return pattern.startsWith("^(?:") && pattern.endsWith(")$")
        ? pattern.substring(4, pattern.length() - 2)
        : pattern;
  }

  /** {@code path} as an RFC 6901 JSON pointer ({@code ""} for the root). */
  static String pointer(NodePath path) {
    StringBuilder pointer = new StringBuilder();
    for (int i = 0; i < path.getNameCount(); i++) {
      pointer.append('/').append(RequestValidator.escape(String.valueOf(path.getElement(i))));
    }
    return pointer.toString();
  }
}
