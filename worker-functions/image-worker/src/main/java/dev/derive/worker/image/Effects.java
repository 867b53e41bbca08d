package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;

/**
 * The effects of a recipe on the resized image, in declaration order, with libvips' operations:
 * {@value ImageRecipe#BLUR} ({@code gaussblur}; with alpha premultiplied first, so transparent
 * pixels lend no colour to the blurred edge) and {@value ImageRecipe#SHARPEN} ({@code sharpen}, an
 * unsharp mask of the lightness, as sharp's {@code sharpen(sigma)}).
 */
final class Effects {
  private Effects() {}

  /** Whether {@code recipe} asks for an effect. */
  static boolean any(ImageRecipe recipe) {
    return recipe.blur() > 0 || recipe.sharpen() > 0;
  }

  /**
   * A new image: {@code image} (8-bit sRGB, with or without alpha) with the recipe's effects; the
   * caller closes both.
   */
  static VipsImage apply(Vips vips, VipsImage image, ImageRecipe recipe) {
    VipsImage current = vips.operation("copy").set("in", image).image();
    try {
      if (recipe.blur() > 0) {
        current = replace(current, blur(vips, current, recipe.blur()));
      }
      if (recipe.sharpen() > 0) {
        current =
            replace(
                current,
                vips.operation("sharpen")
                    .set("in", current)
                    .set("sigma", recipe.sharpen() / 10.0)
                    .image());
      }
      return current;
    } catch (RuntimeException e) {
      current.close();
      throw e;
    }
  }

  private static VipsImage blur(Vips vips, VipsImage image, int sigma) {
    if (!image.hasAlpha()) {
      return vips.operation("gaussblur").set("in", image).set("sigma", (double) sigma).image();
    }
    try (VipsImage premultiplied = vips.operation("premultiply").set("in", image).image();
        VipsImage blurred =
            vips.operation("gaussblur")
                .set("in", premultiplied)
                .set("sigma", (double) sigma)
                .image();
        VipsImage straight = vips.operation("unpremultiply").set("in", blurred).image()) {
      return vips.operation("cast").set("in", straight).set("format", "uchar").image();
    }
  }

  /** {@code next}, having closed {@code previous}. */
  private static VipsImage replace(VipsImage previous, VipsImage next) {
    previous.close();
    return next;
  }
}
