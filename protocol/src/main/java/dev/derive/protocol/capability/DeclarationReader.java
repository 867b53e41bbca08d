package dev.derive.protocol.capability;

import static dev.derive.protocol.capability.JsonMembers.bool;
import static dev.derive.protocol.capability.JsonMembers.each;
import static dev.derive.protocol.capability.JsonMembers.integer;
import static dev.derive.protocol.capability.JsonMembers.mediaType;
import static dev.derive.protocol.capability.JsonMembers.object;
import static dev.derive.protocol.capability.JsonMembers.text;
import static dev.derive.protocol.capability.JsonMembers.texts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The shape of one capability declaration (docs/capability-declarations.md), member by member: the
 * capability, its operations and their parameters, each checked as it is read. A broken member is
 * an {@link IllegalArgumentException} naming it by its JSON pointer; {@link CapabilityDeclarations}
 * adds the file.
 */
final class DeclarationReader {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Set<String> CAPABILITY_MEMBERS =
      Set.of(
          "name",
          "description",
          "timeBudget",
          "limits",
          "conversions",
          "operations",
          "formats",
          "imageUrls",
          "presets");
  private static final Set<String> OPERATION_MEMBERS =
      Set.of(
          "name",
          "description",
          "parameters",
          "consumes",
          "optional",
          "hints",
          "groups",
          "urlShorthands",
          "summary");

  private DeclarationReader() {}

  static CapabilityDescriptor capability(JsonNode root) {
    object(root, "", CAPABILITY_MEMBERS);
    String name = text(root, "/name");
    Map<String, Integer> limits = new LinkedHashMap<>();
    JsonNode declaredLimits = root.path("limits");
    if (!declaredLimits.isMissingNode()) {
      object(declaredLimits, "/limits", null);
      declaredLimits
          .properties()
          .forEach(l -> limits.put(l.getKey(), integer(l.getValue(), "/limits/" + l.getKey())));
    }
    JsonNode budget = root.path("timeBudget");
    object(budget, "/timeBudget", Set.of("timeoutSeconds", "leaseSeconds"));
    List<Conversion> conversions = new ArrayList<>();
    each(
        root,
        "/conversions",
        (c, at) -> {
          object(c, at, Set.of("sources", "targets", "cost", "operations"));
          for (String source : texts(c, at + "/sources")) {
            for (String target : texts(c, at + "/targets")) {
              conversions.add(
                  new Conversion(
                      mediaType(source, at + "/sources"),
                      mediaType(target, at + "/targets"),
                      integer(c.path("cost"), at + "/cost"),
                      texts(c, at + "/operations")));
            }
          }
        });
    List<OperationDescriptor> operations = new ArrayList<>();
    each(root, "/operations", (o, at) -> operations.add(operation(o, at, limits)));
    List<CapabilityDescriptor.Format> formats = new ArrayList<>();
    if (root.has("formats")) {
      each(
          root,
          "/formats",
          (f, at) -> {
            object(f, at, Set.of("mediaType", "names"));
            formats.add(
                new CapabilityDescriptor.Format(
                    mediaType(text(f, at + "/mediaType"), at + "/mediaType"),
                    texts(f, at + "/names")));
          });
    }
    CapabilityDescriptor.ImageUrlFormats imageUrls = null;
    if (root.has("imageUrls")) {
      JsonNode urls = root.get("imageUrls");
      object(urls, "/imageUrls", Set.of("defaultFormat", "autoFormats", "placeholder"));
      CapabilityDescriptor.Placeholder placeholder = null;
      if (urls.has("placeholder")) {
        JsonNode p = urls.get("placeholder");
        String at = "/imageUrls/placeholder";
        object(p, at, Set.of("mediaType", "thumbHash"));
        String pointer = text(p, at + "/thumbHash");
        if (!pointer.startsWith("/")) {
          throw new IllegalArgumentException(at + "/thumbHash: must be a JSON pointer, /name");
        }
        placeholder =
            new CapabilityDescriptor.Placeholder(
                mediaType(text(p, at + "/mediaType"), at + "/mediaType"), pointer);
      }
      imageUrls =
          new CapabilityDescriptor.ImageUrlFormats(
              text(urls, "/imageUrls/defaultFormat"),
              urls.has("autoFormats") ? texts(urls, "/imageUrls/autoFormats") : List.of(),
              placeholder);
    }
    ObjectNode presets = JSON.createObjectNode();
    if (root.has("presets")) {
      object(root.get("presets"), "/presets", null);
      presets = (ObjectNode) root.get("presets").deepCopy();
    }
    return new CapabilityDescriptor(
        name,
        text(root, "/description"),
        CapabilityDescriptor.queueUrlVariableOf(name),
        conversions,
        operations,
        new CapabilityDescriptor.TimeBudget(
            integer(budget.path("timeoutSeconds"), "/timeBudget/timeoutSeconds"),
            integer(budget.path("leaseSeconds"), "/timeBudget/leaseSeconds")),
        limits,
        formats,
        imageUrls,
        presets);
  }

  static OperationDescriptor operation(JsonNode o, String at, Map<String, Integer> limits) {
    object(o, at, OPERATION_MEMBERS);
    List<ParameterDescriptor> parameters = new ArrayList<>();
    if (o.has("parameters")) {
      each(
          o,
          at + "/parameters",
          (p, where) -> parameters.add(ParameterReader.parameter(p, where, limits)));
    }
    List<ParameterGroup> groups = new ArrayList<>();
    if (o.has("groups")) {
      each(
          o,
          at + "/groups",
          (g, where) -> {
            object(g, where, Set.of("rule", "names"));
            ParameterGroup.Rule rule = JSON.convertValue(g.path("rule"), ParameterGroup.Rule.class);
            groups.add(new ParameterGroup(rule, texts(g, where + "/names")));
          });
    }
    List<UrlShorthand> shorthands = new ArrayList<>();
    if (o.has("urlShorthands")) {
      each(
          o,
          at + "/urlShorthands",
          (s, where) -> {
            object(s, where, Set.of("names", "arguments"));
            shorthands.add(
                new UrlShorthand(texts(s, where + "/names"), texts(s, where + "/arguments")));
          });
    }
    return new OperationDescriptor(
        text(o, at + "/name"),
        text(o, at + "/description"),
        parameters,
        o.has("consumes") ? texts(o, at + "/consumes") : List.of(),
        o.has("optional") && bool(o.get("optional"), at + "/optional"),
        o.has("hints") ? texts(o, at + "/hints") : List.of(),
        groups,
        shorthands,
        o.has("summary") && bool(o.get("summary"), at + "/summary"));
  }
}
