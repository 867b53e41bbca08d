package dev.derive.worker.image;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The end of a step in a process without libvips (docs/image-pipeline.md), where the stages of
 * {@link VipsPipeline} cannot run: the picture the Java2D backend decoded, turned upright and
 * resized is flattened onto the background ({@link Canvas#flatten}), placed on the output size
 * (centred or cut at the box's gravity, {@link Canvas}), turned, mirrored and greyed ({@link
 * Geometry}), bordered ({@link Padding}) and written by ImageIO ({@link ImageEncoder}). What needs
 * libvips (blur, sharpen, trim, a smart crop, a watermark, WebP/AVIF/GIF) fails retryably instead.
 */
final class Java2dFinish {
  private static final Color TRANSPARENT = new Color(0, 0, 0, 0);

  private Java2dFinish() {}

  /**
   * Writes {@code sized} (upright, at {@code upright}'s scaled size) as the recipe says to {@code
   * output}.
   *
   * @throws IOException if writing fails
   */
  static void write(BufferedImage sized, ImageRecipe recipe, Placement upright, Path output)
      throws IOException {
    Color background = background(recipe);
    BufferedImage picture =
        recipe.background() == null ? sized : Canvas.flatten(sized, recipe.background());
    BufferedImage placed =
        recipe.box() == null
            ? Canvas.centre(picture, upright.width(), upright.height(), background)
            : recipe
                .box()
                .gravity()
                .crop(picture, upright.width(), upright.height(), background, recipe.rotate());
    BufferedImage shaped = Geometry.apply(placed, recipe);
    if (recipe.pad() != null) {
      shaped = recipe.pad().apply(shaped, background, ImageEncoder.keepsAlpha(recipe.mediaType()));
    }
    ImageEncoder.write(shaped, recipe, output);
  }

  /**
   * The colour of padding: the {@value ImageRecipe#BACKGROUND} operation's, else transparent where
   * the output format keeps alpha (PNG, TIFF, WebP, AVIF), else white.
   */
  static Color background(ImageRecipe recipe) {
    if (recipe.background() != null) {
      return recipe.background();
    }
    return ImageEncoder.keepsAlpha(recipe.mediaType()) ? TRANSPARENT : Color.WHITE;
  }
}
