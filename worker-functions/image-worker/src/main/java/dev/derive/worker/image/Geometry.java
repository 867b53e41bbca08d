package dev.derive.worker.image;

import java.awt.image.BufferedImage;

/**
 * The geometric and colour operations of a recipe on the upright, resized image, in sharp's order:
 * rotate (clockwise), flip (top to bottom), flop (left to right), greyscale (ITU-R BT.601 luma,
 * alpha kept). Works on the {@code TYPE_INT_RGB}/{@code TYPE_INT_ARGB} images {@link Pixels}
 * produces.
 */
final class Geometry {
  private Geometry() {}

  /** Applies the operations of {@code recipe} to {@code image}; returns it untouched if none. */
  static BufferedImage apply(BufferedImage image, ImageRecipe recipe) {
    if (recipe.rotate() == 0 && !recipe.flip() && !recipe.flop() && !recipe.greyscale()) {
      return image;
    }
    int width = image.getWidth();
    int height = image.getHeight();
    int[] in = image.getRGB(0, 0, width, height, null, 0, width);
    boolean turned = recipe.rotationSwapsAxes();
    int outWidth = turned ? height : width;
    int outHeight = turned ? width : height;
    int[] out = new int[in.length];
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        int tx;
        int ty;
        switch (recipe.rotate()) {
          case 90 -> {
            tx = height - 1 - y;
            ty = x;
          }
          case 180 -> {
            tx = width - 1 - x;
            ty = height - 1 - y;
          }
          case 270 -> {
            tx = y;
            ty = width - 1 - x;
          }
          default -> {
            tx = x;
            ty = y;
          }
        }
        if (recipe.flop()) {
          tx = outWidth - 1 - tx;
        }
        if (recipe.flip()) {
          ty = outHeight - 1 - ty;
        }
        int argb = in[y * width + x];
        out[ty * outWidth + tx] = recipe.greyscale() ? grey(argb) : argb;
      }
    }
    int type =
        image.getColorModel().hasAlpha() ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB;
    BufferedImage result = new BufferedImage(outWidth, outHeight, type);
    result.setRGB(0, 0, outWidth, outHeight, out, 0, outWidth);
    return result;
  }

  /** The BT.601 luma of {@code argb} in all three channels, alpha unchanged. */
  private static int grey(int argb) {
    int r = (argb >> 16) & 0xFF;
    int g = (argb >> 8) & 0xFF;
    int b = argb & 0xFF;
    int luma = (int) Math.round(0.299 * r + 0.587 * g + 0.114 * b);
    return (argb & 0xFF000000) | (luma << 16) | (luma << 8) | luma;
  }
}
