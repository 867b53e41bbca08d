package dev.derive.coordinator.preset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A named derivative spec: exactly the {@code target} or the {@code steps} of a {@code POST
 * /v1/derivatives} body, so a request naming the preset and the request spelling it out are the
 * same {@link dev.derive.coordinator.validate.DerivativeRequest} and share one fingerprint.
 *
 * @param name the name requests use, matching {@link Presets#NAME_PATTERN}
 * @param description what it is for, for humans ({@code ""} when the document gives none)
 * @param definition a JSON object with exactly one member, {@code target} (an object) or {@code
 *     steps} (an array), as the document gave it; already validated
 */
public record Preset(String name, String description, ObjectNode definition) {
  public Preset {
    definition = definition.deepCopy();
  }

  /** The preset's {@code target} object, or {@code null} when it gives {@code steps}. */
  public ObjectNode target() {
    JsonNode target = definition.get("target");
    return target instanceof ObjectNode object ? object.deepCopy() : null;
  }

  /** The preset's {@code steps} array, or {@code null} when it gives a {@code target}. */
  public JsonNode steps() {
    JsonNode steps = definition.get("steps");
    return steps == null ? null : steps.deepCopy();
  }
}
