package dev.derive.coordinator.validate;

import dev.derive.coordinator.CoordinatorException;
import java.util.List;

/** Thrown when a derivative request breaks the request rules; lists every violation found. */
public class InvalidRequestException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "invalid-request";

  private final List<Violation> violations;

  /**
   * Creates the exception; the message names the first violation's pointer.
   *
   * @throws IllegalArgumentException if {@code violations} is empty
   */
  public InvalidRequestException(List<Violation> violations) {
    super(KIND, describe(violations));
    this.violations = List.copyOf(violations);
  }

  /** Every violation, in document order. */
  public List<Violation> violations() {
    return violations;
  }

  private static String describe(List<Violation> violations) {
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("an invalid request has at least one violation");
    }
    Violation first = violations.get(0);
    String where = first.pointer().isEmpty() ? "request body" : first.pointer();
    return where + ": " + first.detail();
  }
}
