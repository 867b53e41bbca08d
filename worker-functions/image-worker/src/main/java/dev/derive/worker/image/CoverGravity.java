package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.Locale;

/**
 * What a cover crop keeps (the resize operation's {@code gravity}, imgproxy's {@code g:}, sharp's
 * {@code position}): the centre; a side or corner; a focal point ({@code focus}, percent of the
 * width and height); or what libvips' {@code smartcrop} finds, {@code smart} (its {@code attention}
 * strategy: skin tones, saturated colour and edges) or {@code entropy} (the busiest region). Sides,
 * corners and focal points are given as the caller sees the image, after {@code rotate}; the crop
 * is made before the rotation, so they are turned back first.
 *
 * @param name {@value #CENTRE}, a compass point, {@value #FOCUS}, {@value #SMART} or {@value
 *     #ENTROPY}
 * @param focusX focal point in percent of the shown width (for {@value #FOCUS})
 * @param focusY focal point in percent of the shown height
 */
record CoverGravity(String name, int focusX, int focusY) {
  static final String CENTRE = "centre";
  static final String FOCUS = "focus";
  static final String SMART = "smart";
  static final String ENTROPY = "entropy";

  /** The default: the centre, as {@link Canvas#centre} has always cropped. */
  static final CoverGravity CENTRED = new CoverGravity(CENTRE, 50, 50);

  /** Whether libvips looks at the pixels to choose ({@value #SMART}, {@value #ENTROPY}). */
  boolean looksAtPixels() {
    return name.equals(SMART) || name.equals(ENTROPY);
  }

  /**
   * {@code image}, resized to cover {@code width} x {@code height} (upright), cropped to that size
   * where this gravity says; padded sides (a box larger than the image) stay centred.
   *
   * @param rotate the step's clockwise rotation in degrees, applied after this crop
   */
  BufferedImage crop(BufferedImage image, int width, int height, Color background, int rotate) {
    if (name.equals(CENTRE) || (image.getWidth() <= width && image.getHeight() <= height)) {
      return Canvas.centre(image, width, height, background);
    }
    if (looksAtPixels()) {
      return smartCrop(image, width, height, background);
    }
    double[] point = upright(fractionX(), fractionY(), rotate);
    BufferedImage cut =
        image.getSubimage(
            start(image.getWidth(), width, point[0]),
            start(image.getHeight(), height, point[1]),
            Math.min(width, image.getWidth()),
            Math.min(height, image.getHeight()));
    return Canvas.centre(Pixels.copy(cut), width, height, background);
  }

  /**
   * The region of a {@code imageWidth} x {@code imageHeight} image (resized to cover the output)
   * that a crop to {@code width} x {@code height} at this gravity keeps, for a gravity that does
   * not look at pixels; the same pixels {@link #crop} keeps.
   *
   * @param rotate the step's clockwise rotation in degrees, applied after this crop
   */
  java.awt.Rectangle region(int imageWidth, int imageHeight, int width, int height, int rotate) {
    int cutWidth = Math.min(width, imageWidth);
    int cutHeight = Math.min(height, imageHeight);
    if (name.equals(CENTRE)) {
      return new java.awt.Rectangle(
          -Canvas.offset(width, imageWidth) * (imageWidth > width ? 1 : 0),
          -Canvas.offset(height, imageHeight) * (imageHeight > height ? 1 : 0),
          cutWidth,
          cutHeight);
    }
    double[] point = upright(fractionX(), fractionY(), rotate);
    return new java.awt.Rectangle(
        start(imageWidth, width, point[0]),
        start(imageHeight, height, point[1]),
        cutWidth,
        cutHeight);
  }

  /** libvips' {@code smartcrop} of the overflowing sides ({@link VipsPixels} both ways). */
  private BufferedImage smartCrop(BufferedImage image, int width, int height, Color background) {
    int cutWidth = Math.min(width, image.getWidth());
    int cutHeight = Math.min(height, image.getHeight());
    Vips vips = Vips.shared();
    try (VipsImage in = VipsPixels.toVips(image);
        VipsImage cut =
            vips.operation("smartcrop")
                .set("input", in)
                .set("width", cutWidth)
                .set("height", cutHeight)
                .set("interesting", name.equals(SMART) ? "attention" : "entropy")
                .image()) {
      return Canvas.centre(VipsPixels.toJava(cut), width, height, background);
    }
  }

  /** The first pixel of a crop of {@code output} out of {@code image}, centred on {@code at}. */
  private static int start(int image, int output, double at) {
    if (image <= output) {
      return 0;
    }
    long start = Math.round(at * image - output / 2.0);
    return (int) Math.max(0, Math.min(image - output, start));
  }

  /** The gravity's point as fractions of the shown image (0 left/top, 1 right/bottom). */
  private double fractionX() {
    String g = name.toLowerCase(Locale.ROOT);
    return g.equals(FOCUS) ? focusX / 100.0 : g.endsWith("west") ? 0 : g.endsWith("east") ? 1 : 0.5;
  }

  private double fractionY() {
    String g = name.toLowerCase(Locale.ROOT);
    return g.equals(FOCUS)
        ? focusY / 100.0
        : g.startsWith("north") ? 0 : g.startsWith("south") ? 1 : 0.5;
  }

  /**
   * A point of the shown image (after a clockwise rotation by {@code rotate}) in the upright image
   * before it: a turn by 90 takes the upright (x, y) to (1 - y, x).
   */
  static double[] upright(double x, double y, int rotate) {
    return switch (rotate) {
      case 90 -> new double[] {y, 1 - x};
      case 180 -> new double[] {1 - x, 1 - y};
      case 270 -> new double[] {1 - y, x};
      default -> new double[] {x, y};
    };
  }
}
