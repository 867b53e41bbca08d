package dev.derive.coordinator.preset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.protocol.identity.Fingerprint;

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

  /**
   * The version of the preset's definition: the first {@value #DIGEST_LENGTH} hex digits of the
   * SHA-256 of its canonical JSON (RFC 8785, {@link Fingerprint}; the description is not part of
   * it). An image URL names it beside the name ({@code pr:thumb:<digest>}), so the signature covers
   * what the preset meant when the URL was signed, not only its name.
   */
  public String digest() {
    return Fingerprint.of(definition).substring(0, DIGEST_LENGTH);
  }

  /** Hex digits of {@link #digest}: 64 bits, against the accidental collision of two versions. */
  public static final int DIGEST_LENGTH = 16;

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
