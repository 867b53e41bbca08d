package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import java.nio.file.Path;

/**
 * What the stages of one step share: the recipe, where the picture goes ({@link Placement},
 * upright), the output file, and the one libvips image the stages hand on, each replacing it (the
 * one it replaces is closed: libvips keeps what the new image still needs alive by its own
 * references).
 */
final class PipelineContext implements AutoCloseable {
  private final Vips vips;
  private final ImageRecipe recipe;
  private final Placement placement;
  private final Path output;
  private final Watermark watermark;
  private VipsImage image;

  /**
   * @param watermark the step's watermark, {@code null} without one
   */
  PipelineContext(
      Vips vips, ImageRecipe recipe, Placement placement, Path output, Watermark watermark) {
    this.vips = vips;
    this.recipe = recipe;
    this.placement = placement;
    this.output = output;
    this.watermark = watermark;
  }

  Vips vips() {
    return vips;
  }

  ImageRecipe recipe() {
    return recipe;
  }

  /** The scaled size and the output size, upright. */
  Placement placement() {
    return placement;
  }

  Path output() {
    return output;
  }

  /** The step's watermark ({@link Watermark#of}), {@code null} without one. */
  Watermark watermark() {
    return watermark;
  }

  /** The current image; {@code null} before the decode stage. */
  VipsImage image() {
    return image;
  }

  /** Makes {@code next} the current image and closes the one it replaces. */
  void replace(VipsImage next) {
    if (next == image) {
      return;
    }
    VipsImage previous = image;
    image = next;
    if (previous != null) {
      previous.close();
    }
  }

  /**
   * Copies the current image into memory, so a stage may read it out of order: libvips' loaders
   * stream a file top to bottom ({@code access=sequential}), which a smart crop, a turn, a flip or
   * a convolution does not. The image is small by then (the output's size).
   */
  void inMemory() {
    replace(vips.copyMemory(image));
  }

  /**
   * The step's {@value ImageRecipe#BACKGROUND} as libvips' colour, 0..255: red, green, blue for an
   * opaque one, and its alpha after them for a translucent one; {@code null} without one.
   */
  double[] background() {
    java.awt.Color colour = recipe.background();
    if (colour == null) {
      return null;
    }
    return colour.getAlpha() == 0xFF
        ? new double[] {colour.getRed(), colour.getGreen(), colour.getBlue()}
        : new double[] {colour.getRed(), colour.getGreen(), colour.getBlue(), colour.getAlpha()};
  }

  /** Whether the output format keeps an alpha channel ({@link ImageEncoder#keepsAlpha}). */
  boolean keepsAlpha() {
    return ImageEncoder.keepsAlpha(recipe.mediaType());
  }

  @Override
  public void close() {
    replace(null);
  }
}
