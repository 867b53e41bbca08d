package dev.derive.protocol.capability;

import static dev.derive.protocol.capability.JsonMembers.bool;
import static dev.derive.protocol.capability.JsonMembers.integer;
import static dev.derive.protocol.capability.JsonMembers.mediaType;
import static dev.derive.protocol.capability.JsonMembers.object;
import static dev.derive.protocol.capability.JsonMembers.scalar;
import static dev.derive.protocol.capability.JsonMembers.text;
import static dev.derive.protocol.capability.JsonMembers.texts;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One parameter of an operation's declaration: its members, its URL spelling and its output
 * defaults, and the checks that need the whole parameter (a default, an example or an output
 * default its own rules reject; an alias to a value it does not allow).
 */
final class ParameterReader {
  private static final Set<String> PARAMETER_MEMBERS =
      Set.of(
          "name",
          "type",
          "minimum",
          "maximum",
          "allowedValues",
          "pattern",
          "defaultValue",
          "description",
          "multipleOf",
          "required",
          "url",
          "examples",
          "outputDefaults",
          "sourceObject");

  private ParameterReader() {}

  static ParameterDescriptor parameter(JsonNode p, String at, Map<String, Integer> limits) {
    object(p, at, PARAMETER_MEMBERS);
    String type = text(p, at + "/type");
    Function<String, Integer> bound =
        member -> {
          JsonNode value = p.get(member);
          if (value == null) {
            return null;
          }
          if (value.isTextual()) {
            Integer limit = limits.get(value.textValue());
            if (limit == null) {
              throw new IllegalArgumentException(
                  at + "/" + member + ": names no limit of the declaration: " + value.textValue());
            }
            return limit;
          }
          return integer(value, at + "/" + member);
        };
    UrlSpelling url = null;
    if (p.has("url")) {
      JsonNode u = p.get("url");
      String where = at + "/url";
      object(
          u, where, Set.of("names", "aliases", "prefix", "zeroIsAbsent", "negate", "scaledByDpr"));
      Map<String, String> aliases = new LinkedHashMap<>();
      if (u.has("aliases")) {
        object(u.get("aliases"), where + "/aliases", null);
        u.get("aliases")
            .properties()
            .forEach(
                a -> aliases.put(a.getKey(), text(u.get("aliases"), where + "/" + a.getKey())));
      }
      url =
          new UrlSpelling(
              u.has("names") ? texts(u, where + "/names") : List.of(),
              aliases,
              u.has("prefix") ? text(u, where + "/prefix") : null,
              u.has("zeroIsAbsent") && bool(u.get("zeroIsAbsent"), where + "/zeroIsAbsent"),
              u.has("negate") && bool(u.get("negate"), where + "/negate"),
              u.has("scaledByDpr") && bool(u.get("scaledByDpr"), where + "/scaledByDpr"));
    }
    ParameterDescriptor parameter =
        new ParameterDescriptor(
            text(p, at + "/name"),
            type,
            bound.apply("minimum"),
            bound.apply("maximum"),
            p.has("allowedValues") ? texts(p, at + "/allowedValues") : List.of(),
            p.has("pattern") ? text(p, at + "/pattern") : null,
            p.has("defaultValue") ? scalar(p.get("defaultValue"), at + "/defaultValue") : null,
            p.has("description") ? text(p, at + "/description") : null,
            bound.apply("multipleOf"),
            p.has("required") ? bool(p.get("required"), at + "/required") : null,
            url,
            p.has("examples") ? texts(p, at + "/examples") : List.of(),
            outputDefaults(p, at),
            p.has("sourceObject") ? bool(p.get("sourceObject"), at + "/sourceObject") : null);
    if (parameter.defaultValue() != null) {
      String problem = ParameterValues.problem(parameter, parameter.defaultValue());
      if (problem != null) {
        throw new IllegalArgumentException(at + "/defaultValue: " + problem);
      }
    }
    if (parameter.pattern() != null && parameter.examples().isEmpty()) {
      throw new IllegalArgumentException(
          at + "/examples: a parameter with a pattern declares a value it takes");
    }
    for (int e = 0; e < parameter.examples().size(); e++) {
      String problem = ParameterValues.problem(parameter, parameter.examples().get(e));
      if (problem != null) {
        throw new IllegalArgumentException(at + "/examples/" + e + ": " + problem);
      }
    }
    for (Map.Entry<String, Object> entry : parameter.outputDefaults().entrySet()) {
      String problem = ParameterValues.problem(parameter, entry.getValue());
      if (problem != null) {
        throw new IllegalArgumentException(
            at + "/outputDefaults/" + entry.getKey() + ": " + problem);
      }
    }
    if (url != null && !url.aliases().isEmpty()) {
      for (String value : url.aliases().values()) {
        if (!parameter.allowedValues().contains(value)) {
          throw new IllegalArgumentException(
              at + "/url/aliases: " + value + " is not an allowed value");
        }
      }
    }
    return parameter;
  }

  /** A parameter's {@code outputDefaults}: media type (an essence) to default value. */
  static Map<String, Object> outputDefaults(JsonNode p, String at) {
    Map<String, Object> defaults = new LinkedHashMap<>();
    if (p.has("outputDefaults")) {
      JsonNode node = p.get("outputDefaults");
      object(node, at + "/outputDefaults", null);
      node.properties()
          .forEach(
              e -> {
                String where = at + "/outputDefaults/" + e.getKey();
                defaults.put(mediaType(e.getKey(), where), scalar(e.getValue(), where));
              });
    }
    return defaults;
  }
}
