package dev.derive.coordinator.preset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.coordinator.validate.Violation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A validated set of {@link Preset}s, read from one JSON document:
 *
 * <pre>{@code
 * {"small": {"description": "…", "target": {"mediaType": "<type>", "width": 256, …}},
 *  "first": {"steps": [{"capability": "<name>", "operation": "<op>", "params": {…}}]}}
 * }</pre>
 *
 * Each preset is checked by the same {@link RequestValidator} as a {@code POST /v1/derivatives}
 * body, so a document that loads holds only requests the API would take.
 */
public final class Presets {
  /** What a preset name may be: lower-case letters, digits, {@code -} and {@code _}, 1-64 long. */
  public static final String NAME_PATTERN = "[a-z0-9][a-z0-9_-]{0,63}";

  /** Where the built-in presets come from in messages. */
  public static final String BUILT_IN_SOURCE = "built-in";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> PRESET_FIELDS = Set.of("description", "target", "steps");
  private static final String CHECK_KEY = "presets/check";

  private final Map<String, Preset> byName;

  private Presets(Map<String, Preset> byName) {
    this.byName = Collections.unmodifiableMap(new LinkedHashMap<>(byName));
  }

  /**
   * Parses and validates a presets document.
   *
   * @param where where it came from, for messages (e.g. {@code file:/etc/presets.json})
   * @throws InvalidPresetsException listing every violation, if there is any
   */
  public static Presets parse(String document, String where, RequestValidator validator) {
    JsonNode root;
    try {
      root = JSON.readTree(document);
    } catch (JsonProcessingException e) {
      throw new InvalidPresetsException(
          where, List.of(new Violation("", "not JSON: " + e.getOriginalMessage())));
    }
    if (root == null || !root.isObject()) {
      throw new InvalidPresetsException(
          where, List.of(new Violation("", "must be a JSON object of presets by name")));
    }
    List<Violation> violations = new ArrayList<>();
    Map<String, Preset> presets = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      preset(entry.getKey(), entry.getValue(), validator, violations)
          .ifPresent(p -> presets.put(p.name(), p));
    }
    if (!violations.isEmpty()) {
      throw new InvalidPresetsException(where, violations);
    }
    return new Presets(presets);
  }

  /**
   * The presets in force when the deployment configures none: those the deployed capabilities
   * declare ({@link dev.derive.protocol.capability.CapabilityCatalogue#presets()}, e.g. the image
   * capability's {@code thumb} and {@code preview}), in declaration order. One the deployment
   * cannot make is left out (a {@code page-1} whose page no deployed capability renders, when the
   * pdf capability is not deployed).
   */
  public static Presets builtIn(RequestValidator validator) {
    Map<String, Preset> presets = new LinkedHashMap<>();
    validator
        .capabilities()
        .presets()
        .properties()
        .forEach(
            e -> {
              List<Violation> violations = new ArrayList<>();
              preset(e.getKey(), e.getValue(), validator, violations)
                  .filter(p -> violations.isEmpty())
                  .ifPresent(p -> presets.put(p.name(), p));
            });
    return new Presets(presets);
  }

  private static Optional<Preset> preset(
      String name, JsonNode node, RequestValidator validator, List<Violation> violations) {
    String pointer = "/" + escape(name);
    if (!name.matches(NAME_PATTERN)) {
      violations.add(new Violation(pointer, "a preset name must match " + NAME_PATTERN));
      return Optional.empty();
    }
    if (!node.isObject()) {
      violations.add(new Violation(pointer, "must be a JSON object with a target or steps"));
      return Optional.empty();
    }
    int before = violations.size();
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String field = names.next();
      if (!PRESET_FIELDS.contains(field)) {
        violations.add(new Violation(pointer + "/" + escape(field), "unknown field"));
      }
    }
    JsonNode description = node.get("description");
    if (description != null && !description.isTextual()) {
      violations.add(new Violation(pointer + "/description", "must be a string"));
    }
    boolean hasTarget = node.hasNonNull("target");
    boolean hasSteps = node.hasNonNull("steps");
    if (hasTarget == hasSteps) {
      violations.add(new Violation(pointer, "give either target or steps"));
    }
    if (violations.size() > before) {
      return Optional.empty();
    }
    ObjectNode definition = JSON.createObjectNode();
    definition.set(hasTarget ? "target" : "steps", node.get(hasTarget ? "target" : "steps"));
    ObjectNode check = definition.deepCopy();
    check.putObject("source").put("key", CHECK_KEY);
    try {
      validator.validate(check);
    } catch (InvalidRequestException e) {
      e.violations().forEach(v -> violations.add(new Violation(pointer + v.pointer(), v.detail())));
      return Optional.empty();
    }
    return Optional.of(
        new Preset(name, description == null ? "" : description.textValue(), definition));
  }

  /** Every preset, in document order. */
  public List<Preset> all() {
    return List.copyOf(byName.values());
  }

  /** The preset called {@code name}, if there is one. */
  public Optional<Preset> find(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /**
   * The preset called {@code name}.
   *
   * @param pointer where the name was given, for the violation (e.g. {@code /preset})
   * @throws InvalidRequestException if there is no such preset; the name is echoed only when it
   *     matches {@link #NAME_PATTERN}
   */
  public Preset require(String name, String pointer) {
    return find(name)
        .orElseThrow(
            () ->
                new InvalidRequestException(
                    List.of(
                        new Violation(
                            pointer,
                            (name.matches(NAME_PATTERN)
                                    ? "unknown preset '" + name + "'"
                                    : "no such preset")
                                + "; known: "
                                + byName.keySet()))));
  }

  /**
   * A {@code POST /v1/derivatives} body with its {@code preset} member replaced by the preset's
   * {@code target} or {@code steps}; a body without {@code preset} is returned as it is. The result
   * goes to {@link RequestValidator#validate}, which so sees exactly what a client spelling out the
   * preset sends.
   *
   * @throws InvalidRequestException at {@code /preset} if it is not a string, names no preset, or
   *     is given together with {@code target} or {@code steps}
   */
  public JsonNode expand(JsonNode body) {
    if (body == null || !body.isObject() || !body.has("preset")) {
      return body;
    }
    JsonNode name = body.get("preset");
    if (!name.isTextual()) {
      throw new InvalidRequestException(
          List.of(new Violation("/preset", "must be a string naming a preset")));
    }
    if (body.hasNonNull("target") || body.hasNonNull("steps")) {
      throw new InvalidRequestException(
          List.of(new Violation("/preset", "give one of preset, target or steps")));
    }
    Preset preset = require(name.textValue(), "/preset");
    ObjectNode expanded = ((ObjectNode) body).deepCopy();
    expanded.remove("preset");
    expanded.remove("target");
    expanded.remove("steps");
    if (preset.target() != null) {
      expanded.set("target", preset.target());
    } else {
      expanded.set("steps", preset.steps());
    }
    return expanded;
  }

  private static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
