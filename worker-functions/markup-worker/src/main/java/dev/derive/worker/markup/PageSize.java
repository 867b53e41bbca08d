package dev.derive.worker.markup;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;

/** The paper sizes the {@code render} operation offers, in millimetres (ISO 216, ANSI). */
public enum PageSize {
  A4("A4", 210f, 297f),
  LETTER("Letter", 215.9f, 279.4f);

  private final String label;
  private final float widthMm;
  private final float heightMm;

  PageSize(String label, float widthMm, float heightMm) {
    this.label = label;
    this.widthMm = widthMm;
    this.heightMm = heightMm;
  }

  /** The parameter value, {@code A4} or {@code Letter}. */
  public String label() {
    return label;
  }

  /** Width in millimetres. */
  public float widthMm() {
    return widthMm;
  }

  /** Height in millimetres. */
  public float heightMm() {
    return heightMm;
  }

  /**
   * The size called {@code label} (case-insensitive).
   *
   * @throws PermanentStepFailure {@code invalid-step} for any other name
   */
  public static PageSize named(String label) {
    for (PageSize size : values()) {
      if (size.label.equalsIgnoreCase(label)) {
        return size;
      }
    }
    throw new PermanentStepFailure(
        StepErrorTypes.INVALID_STEP, "pageSize must be A4 or Letter, not " + label);
  }
}
