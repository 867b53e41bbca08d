package dev.derive.worker.image;

/**
 * Where a resized image goes: it is resampled to {@code scaledWidth} x {@code scaledHeight} pixels
 * and centred on an output of {@code width} x {@code height} pixels, cropped where it is larger and
 * padded where it is smaller (see {@link Canvas}).
 */
public record Placement(int scaledWidth, int scaledHeight, int width, int height) {
  public Placement {
    if (scaledWidth < 1 || scaledHeight < 1 || width < 1 || height < 1) {
      throw new IllegalArgumentException("sizes must be at least 1 pixel");
    }
  }

  /** An image kept at its {@code width} x {@code height} pixels. */
  public static Placement unchanged(int width, int height) {
    return new Placement(width, height, width, height);
  }

  /** Whether the output is larger than the scaled image on some side (there is padding). */
  public boolean pads() {
    return width > scaledWidth || height > scaledHeight;
  }

  /** The same placement turned on its side: widths and heights swapped. */
  public Placement transposed() {
    return new Placement(scaledHeight, scaledWidth, height, width);
  }
}
