package dev.derive.coordinator.plan;

import dev.derive.coordinator.CoordinatorException;
import java.util.List;
import java.util.Set;

/**
 * Thrown when no chain of capabilities converts the source's media type to the target media type;
 * carries the targets that are reachable from the source, so a client can pick one.
 */
public class NoConversionException extends CoordinatorException {
  /** The stable error kind. */
  public static final String KIND = "no-conversion";

  private final String source;
  private final List<String> reachable;

  /** Names both media types and the targets reachable from {@code source}. */
  public NoConversionException(String source, String target, Set<String> reachable) {
    this(
        "no chain of capabilities converts "
            + source
            + " to "
            + target
            + "; reachable from "
            + source
            + ": "
            + reachable,
        source,
        List.copyOf(reachable));
  }

  private NoConversionException(String detail, String source, List<String> reachable) {
    super(KIND, detail);
    this.source = source;
    this.reachable = reachable;
  }

  /** For explicit steps of which one cannot read what the step before it wrote. */
  public static NoConversionException forSteps(
      String detail, String source, Set<String> reachable) {
    return new NoConversionException(detail, source, List.copyOf(reachable));
  }

  /** The detected source media type. */
  public String source() {
    return source;
  }

  /** The target media types some chain reaches from the source, sorted. */
  public List<String> reachable() {
    return reachable;
  }
}
