package dev.derive.bench;

/**
 * One line of the bench's table and one entry of {@code rows} in {@code latest.json}.
 *
 * @param id the stable id, e.g. {@code thumbnail_12mp}
 * @param value the measured value in {@code unit}, or {@code null} when not measured
 * @param unit e.g. {@code ms}, {@code MB}, {@code executions/derivative}
 * @param anchor what the value is compared with, measured in the same run
 * @param anchorValue the anchor's value in {@code unit}, or {@code null}
 * @param goal the ratio the issue aims for ({@code ratio <= goal}; for dedup exactly it), or {@code
 *     null} when the row has none
 * @param note how it was measured or why it was not (printed, and kept in the machine notes)
 */
public record Row(
    String id,
    Double value,
    String unit,
    String anchor,
    Double anchorValue,
    Double goal,
    String note) {

  /** {@code value / anchorValue}, or {@code null} when either is missing or the anchor is 0. */
  public Double ratio() {
    if (value == null || anchorValue == null || anchorValue == 0 || value.isNaN()) {
      return null;
    }
    return value / anchorValue;
  }

  /** A row that could not be measured, saying why in {@code note}. */
  public static Row unmeasured(String id, String unit, String anchor, Double goal, String note) {
    return new Row(id, null, unit, anchor, null, goal, "unmeasured: " + note);
  }
}
