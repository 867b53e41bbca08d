package dev.derive.infra.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Checks a {@code derive} target against the target schema the API serves ({@code GET /v1/schema},
 * {@code properties.target}: every option with its type, bounds and allowed values), before
 * anything is uploaded: a misspelt {@code --widht} is refused at once, naming the option meant,
 * instead of after the upload when the API answers 400 (found by a newcomer's trial). A flag's
 * value, which arrives as text, is given the type the schema says ({@code --withoutEnlargement
 * false} is the boolean {@code false}). What the schema says beyond these (patterns, rules across
 * options) the API still checks.
 */
final class TargetOptions {
  private TargetOptions() {}

  /**
   * {@code target} with its values typed as {@code targetSchema} says.
   *
   * @throws IllegalArgumentException naming the first option the schema refuses, and why
   */
  static ObjectNode typed(JsonNode targetSchema, ObjectNode target) {
    JsonNode properties = targetSchema.path("properties");
    if (!properties.isObject() || properties.isEmpty()) {
      return target; // an API that describes no options: it checks them itself
    }
    ObjectNode typed = target.deepCopy();
    for (Iterator<Map.Entry<String, JsonNode>> it = target.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> member = it.next();
      String name = member.getKey();
      JsonNode schema = properties.get(name);
      if (schema == null) {
        throw new IllegalArgumentException(unknown(name, properties));
      }
      typed.set(name, value(name, schema, member.getValue()));
    }
    return typed;
  }

  private static JsonNode value(String name, JsonNode schema, JsonNode value) {
    String type = schema.path("type").asText("");
    JsonNode typed = value;
    if (value.isTextual()) {
      String text = value.asText();
      typed =
          switch (type) {
            case "boolean" ->
                text.equals("true") || text.equals("false")
                    ? com.fasterxml.jackson.databind.node.BooleanNode.valueOf(
                        Boolean.parseBoolean(text))
                    : value;
            case "integer" -> text.matches("-?\\d{1,18}") ? longNode(text) : value;
            case "number" -> text.matches("-?\\d+(\\.\\d+)?") ? decimalNode(text) : value;
            default -> value;
          };
    }
    boolean matches =
        switch (type) {
          case "boolean" -> typed.isBoolean();
          case "integer" -> typed.isIntegralNumber();
          case "number" -> typed.isNumber();
          case "string" -> typed.isTextual();
          default -> true;
        };
    if (!matches) {
      throw new IllegalArgumentException(
          "--" + name + ": must be " + article(type) + ", got " + shown(value));
    }
    JsonNode allowed = schema.path("enum");
    // a media type may be written in any case and with parameters: the API judges it
    if (allowed.isArray() && !allowed.isEmpty() && !name.equals("mediaType")) {
      boolean listed = false;
      List<String> values = new ArrayList<>();
      for (JsonNode a : allowed) {
        values.add(a.asText());
        listed |=
            a.isNumber() && typed.isNumber() ? a.asDouble() == typed.asDouble() : a.equals(typed);
      }
      if (!listed) {
        throw new IllegalArgumentException(
            "--"
                + name
                + ": must be one of "
                + String.join(", ", values)
                + ", got "
                + shown(value));
      }
    }
    if (typed.isNumber()) {
      JsonNode minimum = schema.get("minimum");
      JsonNode maximum = schema.get("maximum");
      double v = typed.asDouble();
      if ((minimum != null && v < minimum.asDouble())
          || (maximum != null && v > maximum.asDouble())) {
        throw new IllegalArgumentException(
            "--"
                + name
                + ": must be "
                + (minimum != null && maximum != null
                    ? "between " + minimum.asText() + " and " + maximum.asText()
                    : minimum != null
                        ? "at least " + minimum.asText()
                        : "at most " + maximum.asText())
                + ", got "
                + typed.asText());
      }
    }
    return typed;
  }

  /** The sentence for an option the schema does not have, with the nearest one's name. */
  private static String unknown(String name, JsonNode properties) {
    List<String> names = new ArrayList<>();
    properties.fieldNames().forEachRemaining(names::add);
    String nearest = null;
    int best = Integer.MAX_VALUE;
    for (String candidate : names) {
      int distance = distance(name.toLowerCase(), candidate.toLowerCase());
      if (distance < best) {
        best = distance;
        nearest = candidate;
      }
    }
    return "--"
        + name
        + ": no such target option"
        + (nearest != null && best <= Math.max(2, name.length() / 3)
            ? "; did you mean --" + nearest + "?"
            : "")
        + " (the options: --"
        + String.join(", --", names.stream().filter(n -> !n.equals("mediaType")).toList())
        + ")";
  }

  /** Levenshtein distance, a transposition counting one. */
  private static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  private static JsonNode longNode(String text) {
    return com.fasterxml.jackson.databind.node.LongNode.valueOf(Long.parseLong(text));
  }

  private static JsonNode decimalNode(String text) {
    return com.fasterxml.jackson.databind.node.DoubleNode.valueOf(Double.parseDouble(text));
  }

  private static String article(String type) {
    return switch (type) {
      case "integer" -> "an integer";
      case "number" -> "a number";
      case "boolean" -> "true or false";
      case "string" -> "text";
      default -> type;
    };
  }

  private static String shown(JsonNode value) {
    return value.isTextual() ? "'" + value.asText() + "'" : value.toString();
  }
}
