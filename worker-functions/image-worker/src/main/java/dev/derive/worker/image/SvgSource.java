package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsException;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Dimension;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * An SVG drawn by libvips' {@code svgload_buffer} (librsvg) at the scale the step needs: a vector
 * is rasterised at the box's size, never at its intrinsic size first (an SVG whose viewBox is
 * 216958 x 116417 units makes a 256 px thumbnail without a 25-gigapixel raster). It is loaded from
 * memory with no base location, so librsvg resolves no reference (no file beside the input, no
 * {@code http} URL: librsvg loads only {@code data:} URLs and files under the base, and there is
 * none); librsvg runs no script. Sources over {@value #MAX_BYTES} bytes are refused.
 */
final class SvgSource implements ImageSource {
  /** Largest SVG read: 16 MiB of XML (librsvg's own parser limits apply within it). */
  static final long MAX_BYTES = 16L << 20;

  private final Vips vips;
  private final byte[] svg;
  private final int width;
  private final int height;

  private SvgSource(Vips vips, byte[] svg, int width, int height) {
    this.vips = vips;
    this.svg = svg;
    this.width = width;
    this.height = height;
  }

  /**
   * Reads {@code file}'s intrinsic size (its {@code width}/{@code height}, else its viewBox).
   *
   * @throws PermanentStepFailure {@code input-too-large} over {@value #MAX_BYTES} bytes, {@code
   *     corrupt-input} if librsvg cannot parse it
   */
  static SvgSource open(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_BYTES) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          String.format(
              Locale.ROOT,
              "the SVG is %.1f MB, over the %d MB an SVG may have",
              size / 1048576.0,
              MAX_BYTES >> 20));
    }
    Vips vips = Vips.shared();
    byte[] svg = Files.readAllBytes(file);
    try (VipsImage header = vips.operation("svgload_buffer").set("buffer", svg).image()) {
      return new SvgSource(vips, svg, header.width(), header.height());
    } catch (VipsException e) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT,
          "the SVG cannot be read: its XML or its drawing is broken",
          e);
    }
  }

  @Override
  public int width() {
    return width;
  }

  @Override
  public int height() {
    return height;
  }

  @Override
  public Orientation orientation() {
    return Orientation.TOP_LEFT;
  }

  @Override
  public BufferedImage decode(int subsampling) {
    return render(1.0 / subsampling, null);
  }

  /** Drawn at the scale that covers the box: a vector needs no resampling after. */
  @Override
  public BufferedImage decodeScaled(int boxWidth, int boxHeight) {
    return render(scale(boxWidth, boxHeight), null);
  }

  @Override
  public Dimension decodedSize(int boxWidth, int boxHeight) {
    double scale = scale(boxWidth, boxHeight);
    return new Dimension(
        Math.max(1, (int) Math.round(width * scale)),
        Math.max(1, (int) Math.round(height * scale)));
  }

  @Override
  public BufferedImage decodeRegion(Rectangle region, int subsampling) {
    return render(1.0 / subsampling, region);
  }

  /** libvips' result and its copy, off-heap, and the Java copy (8 bytes a pixel on the heap). */
  @Override
  public MemoryEstimate decodeCost(int resultWidth, int resultHeight) {
    double pixels = (double) resultWidth * resultHeight;
    return new MemoryEstimate(Math.round(pixels * 8), Math.round(pixels * 4 * 2));
  }

  @Override
  public String describe() {
    return String.format(Locale.ROOT, "the %dx%d SVG", width, height);
  }

  private double scale(int boxWidth, int boxHeight) {
    return Math.max((double) boxWidth / width, (double) boxHeight / height);
  }

  /** Draws the SVG at {@code scale}, then cuts {@code region} (in unscaled pixels) if given. */
  private BufferedImage render(double scale, Rectangle region) {
    try (VipsImage drawn =
        vips.operation("svgload_buffer").set("buffer", svg).set("scale", scale).image()) {
      if (region == null) {
        return VipsPixels.toJava(drawn);
      }
      int left = (int) Math.floor(region.x * scale);
      int top = (int) Math.floor(region.y * scale);
      int cutWidth =
          Math.max(1, Math.min(drawn.width() - left, (int) Math.ceil(region.width * scale)));
      int cutHeight =
          Math.max(1, Math.min(drawn.height() - top, (int) Math.ceil(region.height * scale)));
      try (VipsImage cut = vips.extractArea(drawn, left, top, cutWidth, cutHeight)) {
        return VipsPixels.toJava(cut);
      }
    } catch (VipsException e) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT, "the SVG cannot be drawn: its drawing is broken", e);
    }
  }

  @Override
  public void close() {}
}
