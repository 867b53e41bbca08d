package dev.derive.worker.pdf;

import dev.derive.protocol.capability.Capabilities;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.util.Set;

/**
 * What a {@code render} operation asks for.
 *
 * @param page 1-based page number (default 1)
 * @param dpi resolution in dots per inch, 1..{@value #MAX_DPI} (default {@value #DEFAULT_DPI});
 *     with a box, only the ceiling when {@code withoutEnlargement}
 * @param width box width in pixels to draw the page into, or {@code null}
 * @param height box height in pixels to draw the page into, or {@code null}
 * @param covers whether the page covers the box (fit {@code cover}, {@code fill} or {@code
 *     outside}) rather than fitting inside it ({@code inside}, {@code contain}, the default)
 * @param withoutEnlargement whether the page is never drawn above {@code dpi}, even for a larger
 *     box (default false: the box decides); the planner passes the resize's value
 */
public record RenderRequest(
    int page, int dpi, Integer width, Integer height, boolean covers, boolean withoutEnlargement) {
  /** The fit modes whose box the page covers; the others (inside, contain) it fits into. */
  private static final Set<String> COVERING = Set.of("cover", "fill", "outside");

  /** Default resolution, dots per inch. */
  public static final int DEFAULT_DPI = 150;

  /** Highest resolution accepted, dots per inch. */
  public static final int MAX_DPI = 600;

  /** Largest box side, in pixels (the API's {@code MAX_DIMENSION}). */
  public static final int MAX_DIMENSION = 16_384;

  /**
   * Reads the parameters of {@code operation}.
   *
   * @throws PermanentStepFailure {@code invalid-step} for a parameter of the wrong type or out of
   *     range
   */
  public static RenderRequest of(Operation operation) {
    int page = integer(operation, "page", 1, Integer.MAX_VALUE, 1);
    int dpi = integer(operation, "dpi", 1, MAX_DPI, DEFAULT_DPI);
    Integer width =
        operation.params().get("width") == null
            ? null
            : integer(operation, "width", 1, MAX_DIMENSION, 0);
    Integer height =
        operation.params().get("height") == null
            ? null
            : integer(operation, "height", 1, MAX_DIMENSION, 0);
    Object fit = operation.params().get("fit");
    if (fit != null && !Capabilities.FIT_MODES.contains(fit)) {
      throw new PermanentStepFailure(
          StepErrorTypes.INVALID_STEP,
          "render fit must be one of " + Capabilities.FIT_MODES + ", not " + fit);
    }
    Object withoutEnlargement = operation.params().get("withoutEnlargement");
    if (withoutEnlargement != null && !(withoutEnlargement instanceof Boolean)) {
      throw new PermanentStepFailure(
          StepErrorTypes.INVALID_STEP,
          "render withoutEnlargement must be true or false, not " + withoutEnlargement);
    }
    return new RenderRequest(
        page,
        dpi,
        width,
        height,
        fit != null && COVERING.contains(fit),
        Boolean.TRUE.equals(withoutEnlargement));
  }

  /** Whether the page is fitted into a box rather than drawn at {@link #dpi()}. */
  public boolean fitsBox() {
    return width != null || height != null;
  }

  private static int integer(Operation operation, String name, int min, int max, int fallback) {
    Object value = operation.params().get(name);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof Number number)
        || number.doubleValue() != Math.rint(number.doubleValue())
        || number.doubleValue() < min
        || number.doubleValue() > max) {
      throw new PermanentStepFailure(
          StepErrorTypes.INVALID_STEP,
          "render " + name + " must be an integer " + min + ".." + max + ", not " + value);
    }
    return number.intValue();
  }
}
