package dev.derive.worker.pdf;

import dev.derive.worker.runtime.Parameters;
import java.util.Set;

/**
 * What a {@code render} operation asks for.
 *
 * @param page 1-based page number
 * @param dpi resolution in dots per inch; with a box, only the ceiling when {@code
 *     withoutEnlargement}
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

  /**
   * Reads the parameters of a {@code render} operation, checked and defaulted by the runtime
   * against the pdf declaration (ranges, defaults and fit modes are declared there).
   */
  public static RenderRequest of(Parameters render) {
    String fit = render.optionalString("fit").orElse(null);
    return new RenderRequest(
        render.integer("page"),
        render.integer("dpi"),
        render.has("width") ? render.integer("width") : null,
        render.has("height") ? render.integer("height") : null,
        fit != null && COVERING.contains(fit),
        render.bool("withoutEnlargement"));
  }

  /** Whether the page is fitted into a box rather than drawn at {@link #dpi()}. */
  public boolean fitsBox() {
    return width != null || height != null;
  }
}
