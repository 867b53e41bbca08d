package dev.derive.worker.markup;

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
   * @throws IllegalArgumentException for any other name (the markup declaration allows only these,
   *     so the runtime refuses a step naming another before it gets here)
   */
  public static PageSize named(String label) {
    for (PageSize size : values()) {
      if (size.label.equalsIgnoreCase(label)) {
        return size;
      }
    }
    throw new IllegalArgumentException("pageSize must be A4 or Letter, not " + label);
  }
}
