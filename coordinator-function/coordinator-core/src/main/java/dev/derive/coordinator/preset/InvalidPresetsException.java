package dev.derive.coordinator.preset;

import dev.derive.coordinator.validate.Violation;
import java.util.List;

/**
 * Thrown when a presets document breaks the rules: not a JSON object of presets, a name outside
 * {@link Presets#NAME_PATTERN}, or a preset whose {@code target} or {@code steps} the request
 * validator refuses. A configuration error: the coordinator refuses to start with it (and keeps its
 * last good presets when a reload meets it). Each violation's pointer is into the document, e.g.
 * {@code /thumb/target/width}.
 */
public class InvalidPresetsException extends RuntimeException {
  private final List<Violation> violations;

  /**
   * @param where where the document came from, e.g. {@code ssm:/derive/presets}
   * @param violations every violation, at least one
   */
  public InvalidPresetsException(String where, List<Violation> violations) {
    super(describe(where, violations));
    this.violations = List.copyOf(violations);
  }

  /** Every violation, in document order. */
  public List<Violation> violations() {
    return violations;
  }

  private static String describe(String where, List<Violation> violations) {
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("an invalid presets document has at least one violation");
    }
    StringBuilder text = new StringBuilder("invalid presets document " + where + ":");
    violations.forEach(v -> text.append(' ').append(v.pointer()).append(": ").append(v.detail()));
    return text.toString();
  }
}
