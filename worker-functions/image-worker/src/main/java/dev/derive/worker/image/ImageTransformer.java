package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.PermanentStepFailure;
import dev.derive.worker.runtime.StepTransformer;
import java.awt.Dimension;
import java.awt.Rectangle;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * The image capability: decode (libvips for 8-bit JPEG incl. arithmetic-coded, CMYK TIFF, WebP,
 * AVIF/HEIF, {@link VipsSource}; ImageIO with the TwelveMonkeys plug-ins for the rest: PNG, GIF,
 * BMP, TIFF, lossless and 12-bit JPEG), convert to sRGB ({@link ColourManagement}), auto-orient
 * from EXIF, trim ({@link Trim}), crop ({@link CropRegion}), resize (sharp's fit modes, {@link
 * Fit}; Lanczos), then the stages of {@link VipsPipeline} to the encoded file, with no metadata
 * (EXIF, ICC) carried over.
 *
 * <p>Order of work: the header is read and the pixel limit checked first; the box is placed on the
 * size the caller sees (upright, trimmed and cropped, then rotated), and both the scaled and the
 * output size are checked against the pixel limit; the memory the step will need is estimated from
 * the header and checked against the function's budget ({@link MemoryBudget}). A source libvips
 * reads is decoded by the pipeline's first stage, shrunk on load: the whole image, the crop's
 * region only, or (for a {@link Trim}, which must see every pixel to find the border) the whole
 * image at full size, cut there. Any other source is decoded by {@link Java2dBackend} and handed to
 * the same stages.
 */
public final class ImageTransformer implements StepTransformer {
  static {
    ImageIO.setUseCache(false); // Lambda's /tmp is small; decode in memory
    ImageIO.scanForPlugins(); // register TwelveMonkeys from the application class loader
  }

  private final long maxPixels;
  private final MemoryBudget budget;

  /**
   * A transformer whose memory budget is this JVM's heap alone (the function's memory size
   * unknown).
   *
   * @param maxPixels largest input (width x height) decoded and largest output produced, in pixels
   *     (env {@code MAX_IMAGE_PIXELS}, {@code template.yaml} default 100 000 000)
   */
  public ImageTransformer(long maxPixels) {
    this(maxPixels, MemoryBudget.forThisProcess(0));
  }

  /**
   * @param maxPixels as {@link #ImageTransformer(long)}
   * @param budget the memory one step may use ({@link MemoryBudget#forThisProcess} of the
   *     function's memory size)
   */
  ImageTransformer(long maxPixels, MemoryBudget budget) {
    if (maxPixels <= 0) {
      throw new IllegalArgumentException("max pixels must be positive: " + maxPixels);
    }
    this.maxPixels = maxPixels;
    this.budget = budget;
  }

  /**
   * A transformer for a function of {@code memorySizeMb} MB (Lambda's {@code
   * AWS_LAMBDA_FUNCTION_MEMORY_SIZE}; 0 when unknown), with this JVM's heap.
   */
  public static ImageTransformer forFunction(long maxPixels, int memorySizeMb) {
    return new ImageTransformer(maxPixels, MemoryBudget.forThisProcess(memorySizeMb));
  }

  /** Runs {@link ImageProbe} in {@code scratch}. */
  @Override
  public void probe(Path scratch) throws IOException {
    ImageProbe.run(this, scratch);
  }

  /**
   * {@inheritDoc}
   *
   * @throws PermanentStepFailure {@code invalid-step} (a crop outside the image, a page past the
   *     last), {@code unsupported-input}, {@code corrupt-input}, {@code input-too-large} (over the
   *     pixel limit, or needing more memory than the budget) or {@code output-too-large}
   * @throws dev.derive.worker.libvips.VipsUnavailableException (retryable) when the input or the
   *     output (WebP, AVIF) needs libvips and it cannot be loaded
   */
  @Override
  public void transform(DeclaredStep step, Path input, Path output) throws IOException {
    if (step.operation(ImageInfo.OPERATION).isPresent()) {
      ImageInfo.write(input, step.inputMediaType(), maxPixels, output);
      return;
    }
    ImageRecipe recipe = ImageRecipe.of(step);
    if (ImageEncoder.needsLibvips(recipe.mediaType())
        || Effects.any(recipe)
        || recipe.trim() != null
        || recipe.animated()) {
      Vips.shared(); // WebP/AVIF/GIF, an effect or a trim: fail (retryably) before decoding if it
      // is missing
    }
    Animation.Frames frames = Animation.frames(recipe, input);
    if (frames != null) {
      Animation.write(recipe, frames, input, maxPixels, budget, Watermark.of(step), output);
      return;
    }
    Watermark watermark = Watermark.of(step);
    try (ImageSource source = ImageSources.open(input, maxPixels, recipe.page())) {
      if (recipe.trim() != null) {
        trimmed(source, recipe, watermark, output);
        return;
      }
      Orientation orientation = source.orientation();
      boolean swap = orientation.swapsAxes();
      int uprightWidth = swap ? source.height() : source.width();
      int uprightHeight = swap ? source.width() : source.height();
      Rectangle crop = recipe.crop() == null ? null : recipe.crop().on(uprightWidth, uprightHeight);
      Layout layout =
          Layout.of(
              recipe,
              crop == null ? uprightWidth : crop.width,
              crop == null ? uprightHeight : crop.height,
              maxPixels);
      if (!VipsPipeline.accepts(source)) {
        Java2dBackend.make(source, crop, recipe, layout, budget, watermark, output);
        return;
      }
      VipsSource vips = (VipsSource) source; // upright: stored and upright sizes agree
      Placement upright = layout.upright();
      Dimension decoded = source.decodedSize(upright.scaledWidth(), upright.scaledHeight());
      MemoryEstimate decode =
          crop == null
              ? vips.stagesCost(decoded.width, decoded.height)
              : vips.stagesRegionCost(
                  crop,
                  ImageSource.subsampling(
                      crop.width, crop.height, upright.scaledWidth(), upright.scaledHeight()));
      budget.check(
          decode.plus(VipsPipeline.outputCost(layout.outputPixels())), layout.work(source));
      VipsPipeline.run(vips, crop, recipe, upright, output, watermark);
    }
  }

  /**
   * A step with a {@value ImageRecipe#TRIM}: the whole image decoded upright at full size into
   * libvips (by libvips, or the Java2D backend's decode imported), its border found, the crop (if
   * any) placed inside what is left, and the stages run from that cut.
   *
   * @throws PermanentStepFailure {@code input-too-large} when the whole image does not fit the
   *     budget
   */
  private void trimmed(ImageSource source, ImageRecipe recipe, Watermark watermark, Path output) {
    MemoryEstimate whole =
        VipsPipeline.accepts(source)
            ? ((VipsSource) source).wholeCost()
            : Java2dBackend.wholeCost(source);
    budget.check(whole, "decoding " + source.describe() + " whole to trim its border");
    try (VipsImage upright =
        VipsPipeline.accepts(source)
            ? ((VipsSource) source).decodeWhole()
            : Java2dBackend.decodeWhole(source)) {
      Rectangle cut = recipe.trim().on(Vips.shared(), upright);
      if (recipe.crop() != null) {
        Rectangle trimmed = cut;
        cut = recipe.crop().on(trimmed.width, trimmed.height);
        cut.translate(trimmed.x, trimmed.y);
      }
      Layout layout = Layout.of(recipe, cut.width, cut.height, maxPixels);
      budget.check(whole.plus(VipsPipeline.outputCost(layout.outputPixels())), layout.work(source));
      VipsPipeline.runCut(upright, cut, recipe, layout.upright(), output, watermark);
    }
  }
}
