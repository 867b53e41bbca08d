package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The Java2D backend, for the sources libvips does not decode ({@link SourceImage}'s ImageIO,
 * FFmpeg's HEIC, SVG's fallback, the PQ tone map): decodes the image (subsampled, never below
 * {@link ImageSource#subsampling}'s three source pixels per target pixel; a crop's region only) in
 * sRGB, turns it upright, resamples it (Lanczos) and hands it to the stages of {@link VipsPipeline}
 * ({@link VipsPipeline#runFrom}).
 *
 * <p>In a process without libvips, where the stages cannot run, it ends the step too ({@link
 * #finish}): the picture flattened onto the background ({@link Canvas#flatten}), placed on the
 * output size (centred or cut at the box's gravity, {@link Canvas}), turned, mirrored and greyed
 * ({@link Geometry}), bordered ({@link Padding}) and written by ImageIO ({@link ImageEncoder}).
 * What needs libvips there (blur, sharpen, trim, a smart crop, a watermark, WebP/AVIF/GIF) fails
 * retryably instead.
 */
final class Java2dBackend {
  /**
   * Bytes a pixel takes in each {@code TYPE_INT_RGB}/{@code ARGB} copy after the decode, and how
   * many such copies of the decoded size (normalised layout, colour conversion) and of the output
   * size (the resample's result and its work image, orientation's two sample arrays and result, the
   * canvas, the encoder's samples) the backend holds at its peak.
   */
  private static final int INT_PIXEL_BYTES = 4;

  private static final int DECODED_COPIES = 2;
  private static final int OUTPUT_COPIES = 6;

  private static final Color TRANSPARENT = new Color(0, 0, 0, 0);

  private Java2dBackend() {}

  /**
   * Makes the step's output from {@code source}: all of it, or {@code crop} of the upright image
   * when not {@code null}, placed by {@code layout}.
   *
   * @throws PermanentStepFailure {@code input-too-large} when the decode and the copies after it do
   *     not fit {@code budget}, or a decode failure
   * @throws IOException if the output cannot be written
   */
  static void make(
      ImageSource source,
      Rectangle crop,
      ImageRecipe recipe,
      Layout layout,
      MemoryBudget budget,
      Watermark watermark,
      Path output)
      throws IOException {
    boolean stages = Vips.available();
    if (!stages && watermark != null) {
      Vips.shared(); // the mark is composed by libvips: fail retryably
    }
    MemoryEstimate after =
        stages ? VipsPipeline.outputCost(layout.outputPixels()) : MemoryEstimate.NONE;
    Orientation orientation = source.orientation();
    Placement upright = layout.upright();
    // Resample in stored orientation (fewer pixels to turn).
    int storedWidth = orientation.swapsAxes() ? upright.scaledHeight() : upright.scaledWidth();
    int storedHeight = orientation.swapsAxes() ? upright.scaledWidth() : upright.scaledHeight();
    BufferedImage decoded;
    if (crop == null) {
      Dimension size = source.decodedSize(storedWidth, storedHeight);
      budget.check(
          source
              .decodeCost(size.width, size.height)
              .plus(after)
              .plus(copies((long) size.width * size.height, layout)),
          layout.work(source));
      decoded = ColourManagement.toSrgb(source.decodeScaled(storedWidth, storedHeight));
      decoded =
          Pixels.resize(
              Pixels.normalize(decoded, keepAlpha(recipe, decoded, upright)),
              storedWidth,
              storedHeight);
    } else {
      Rectangle region = orientation.toStored(crop, source.width(), source.height());
      int subsampling =
          ImageSource.subsampling(region.width, region.height, storedWidth, storedHeight);
      long pixels =
          (long) Math.ceilDiv(region.width, subsampling) * Math.ceilDiv(region.height, subsampling);
      budget.check(
          source.regionCost(region, subsampling).plus(after).plus(copies(pixels, layout)),
          layout.work(source));
      decoded = ColourManagement.toSrgb(source.decodeRegion(region, subsampling));
      decoded = Pixels.normalize(decoded, keepAlpha(recipe, decoded, upright));
    }
    BufferedImage sized =
        Pixels.resize(orientation.apply(decoded), upright.scaledWidth(), upright.scaledHeight());
    if (stages) {
      VipsPipeline.runFrom(sized, recipe, upright, output, watermark);
    } else {
      finish(sized, recipe, upright, output);
    }
  }

  /**
   * A trim's decode: the whole image, upright, at full size, 8-bit sRGB with its alpha, imported
   * into libvips.
   */
  static VipsImage decodeWhole(ImageSource source) {
    BufferedImage decoded = ColourManagement.toSrgb(source.decode(1));
    BufferedImage upright =
        source.orientation().apply(Pixels.normalize(decoded, decoded.getColorModel().hasAlpha()));
    return VipsPixels.toVips(upright);
  }

  /**
   * What {@link #decodeWhole} holds: the decode, {@value #DECODED_COPIES} copies on the heap and
   * libvips' import.
   */
  static MemoryEstimate wholeCost(ImageSource source) {
    long pixels = (long) source.width() * source.height();
    return source
        .decodeCost(source.width(), source.height())
        .plus(MemoryEstimate.heap((double) INT_PIXEL_BYTES * DECODED_COPIES * pixels))
        .plus(new MemoryEstimate(0, INT_PIXEL_BYTES * pixels));
  }

  /**
   * The copies after the decode: {@value #DECODED_COPIES} of the {@code decodedPixels} and {@value
   * #OUTPUT_COPIES} of the layout's output pixels, {@value #INT_PIXEL_BYTES} bytes a pixel, on the
   * heap.
   */
  private static MemoryEstimate copies(long decodedPixels, Layout layout) {
    return MemoryEstimate.heap(
        (double) INT_PIXEL_BYTES
            * (DECODED_COPIES * (double) decodedPixels
                + OUTPUT_COPIES * (double) layout.outputPixels()));
  }

  /** Whether the decode keeps alpha: for the format, or for the flatten onto the background. */
  private static boolean keepAlpha(ImageRecipe recipe, BufferedImage decoded, Placement upright) {
    return (ImageEncoder.keepsAlpha(recipe.mediaType()) || recipe.background() != null)
        && (decoded.getColorModel().hasAlpha()
            || (upright.pads() && background(recipe).getAlpha() < 0xFF));
  }

  /**
   * Writes {@code sized} (upright, at {@code upright}'s scaled size) as the recipe says to {@code
   * output}, without libvips.
   *
   * @throws IOException if writing fails
   */
  private static void finish(
      BufferedImage sized, ImageRecipe recipe, Placement upright, Path output) throws IOException {
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
  private static Color background(ImageRecipe recipe) {
    if (recipe.background() != null) {
      return recipe.background();
    }
    return ImageEncoder.keepsAlpha(recipe.mediaType()) ? TRANSPARENT : Color.WHITE;
  }
}
