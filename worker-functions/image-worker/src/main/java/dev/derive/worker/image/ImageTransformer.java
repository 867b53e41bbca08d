package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.PermanentStepFailure;
import dev.derive.worker.runtime.StepTransformer;
import java.awt.Color;
import java.awt.Dimension;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * The image capability: decode (libvips for 8-bit JPEG incl. arithmetic-coded, CMYK TIFF, WebP,
 * AVIF/HEIF, {@link VipsSource}; ImageIO with the TwelveMonkeys plug-ins for the rest: PNG, GIF,
 * BMP, TIFF, lossless and 12-bit JPEG), convert to sRGB ({@link ColourManagement}), auto-orient
 * from EXIF, crop ({@link CropRegion}), resize (sharp's fit modes, {@link Fit}; Lanczos), rotate,
 * flip, flop, greyscale ({@link Geometry}), encode JPEG, PNG, BMP or TIFF (ImageIO) or WebP, AVIF
 * and GIF (libvips), with no metadata (EXIF, ICC) carried over.
 *
 * <p>Order of work: the header is read and the pixel limit checked first; the box is placed on the
 * size the caller sees (upright, then rotated), and both the scaled and the output size are checked
 * against the pixel limit; the memory the step will need is estimated from the header and checked
 * against the function's budget ({@link MemoryBudget}); large images are subsampled while decoding
 * (never below three times the target size) and resampled to the scaled size in stored orientation;
 * the small result is turned upright, centred on the output size (cropped or padded, {@link
 * Canvas}), then rotated, mirrored and greyed, so padding turns grey with the image; effects come
 * next, and the {@link Padding} border last. A {@link Trim} decodes the whole image first, finds
 * its border, and cuts the rest (and a crop of it) from that decode. A step with a crop decodes
 * only the region (where it lies in the stored image, subsampled the same way), turns it upright
 * and resamples it.
 */
// Over 300 lines because the Java2D fallback path (crop, trim, geometry) still lives here.
public final class ImageTransformer implements StepTransformer {
  /** Decoding keeps at least this many source pixels per target pixel before resampling. */
  private static final int MIN_OVERSAMPLING = 3;

  private static final Color TRANSPARENT = new Color(0, 0, 0, 0);

  static {
    ImageIO.setUseCache(false); // Lambda's /tmp is small; decode in memory
    ImageIO.scanForPlugins(); // register TwelveMonkeys from the application class loader
  }

  /**
   * Bytes a pixel takes in each {@code TYPE_INT_RGB}/{@code ARGB} copy after the decode, and how
   * many such copies of the decoded size (normalised layout, colour conversion) and of the output
   * size (the resample's result and its work image, orientation's two sample arrays and result, the
   * canvas, the encoder's samples) the pipeline holds at its peak.
   */
  private static final int INT_PIXEL_BYTES = 4;

  private static final int DECODED_COPIES = 2;
  private static final int OUTPUT_COPIES = 6;

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
    try (ImageSource source = ImageSources.open(input, maxPixels, recipe.page())) {
      Orientation orientation = source.orientation();
      boolean swap = orientation.swapsAxes();
      int uprightWidth = swap ? source.height() : source.width();
      int uprightHeight = swap ? source.width() : source.height();
      // A trim decodes the whole image first to find its border; the crop is cut from what is left.
      BufferedImage whole = recipe.trim() == null ? null : decodeWhole(source, orientation);
      Rectangle trimmed = whole == null ? null : recipe.trim().on(whole);
      Rectangle crop = trimmed;
      if (recipe.crop() != null) {
        crop =
            trimmed == null
                ? recipe.crop().on(uprightWidth, uprightHeight)
                : recipe.crop().on(trimmed.width, trimmed.height);
        if (trimmed != null) {
          crop.translate(trimmed.x, trimmed.y);
        }
      }
      int croppedWidth = crop == null ? uprightWidth : crop.width;
      int croppedHeight = crop == null ? uprightHeight : crop.height;
      // The box is fitted to the image as the caller will see it: upright, cropped, then rotated.
      boolean turned = recipe.rotationSwapsAxes();
      int shownWidth = turned ? croppedHeight : croppedWidth;
      int shownHeight = turned ? croppedWidth : croppedHeight;
      Placement shown =
          recipe.box() == null
              ? Placement.unchanged(shownWidth, shownHeight)
              : recipe.box().place(shownWidth, shownHeight);
      checkOutputSize(shown.scaledWidth(), shown.scaledHeight());
      checkOutputSize(shown.width(), shown.height());
      Padding pad = recipe.pad();
      long paddedPixels =
          pad == null ? 0 : (long) pad.width(shown.width()) * pad.height(shown.height());
      if (pad != null) {
        checkOutputSize(pad.width(shown.width()), pad.height(shown.height()));
      }
      // Resampling and cropping or padding happen before the rotation: transpose the placement.
      Placement upright = turned ? shown.transposed() : shown;
      Color background = background(recipe);
      // Resample in stored orientation (fewer pixels to turn), subsampling large images.
      int storedWidth = swap ? upright.scaledHeight() : upright.scaledWidth();
      int storedHeight = swap ? upright.scaledWidth() : upright.scaledHeight();
      long outputPixels =
          Math.max(
              Math.max(
                  (long) upright.scaledWidth() * upright.scaledHeight(),
                  (long) upright.width() * upright.height()),
              paddedPixels);
      if (VipsPipeline.accepts(recipe, source)) {
        VipsSource vips = (VipsSource) source; // upright: stored and upright sizes agree
        Dimension decodedSize = source.decodedSize(storedWidth, storedHeight);
        budget.check(
            VipsPipeline.cost(vips, decodedSize.width, decodedSize.height, outputPixels),
            work(source, shown));
        VipsPipeline.run(vips, recipe, upright, output, Watermark.of(step));
        return;
      }
      BufferedImage sized;
      if (crop == null) {
        boolean stages = VipsPipeline.takes(recipe); // the Java2D backend decodes for the stages
        Dimension decodedSize = source.decodedSize(storedWidth, storedHeight);
        checkMemory(
            source,
            source
                .decodeCost(decodedSize.width, decodedSize.height)
                .plus(stages ? VipsPipeline.outputCost(outputPixels) : MemoryEstimate.NONE),
            (long) decodedSize.width * decodedSize.height,
            outputPixels,
            shown);
        BufferedImage decoded =
            ColourManagement.toSrgb(source.decodeScaled(storedWidth, storedHeight));
        boolean keepAlpha = keepAlpha(recipe, decoded, upright, background);
        sized =
            orientation.apply(
                Pixels.resize(Pixels.normalize(decoded, keepAlpha), storedWidth, storedHeight));
        if (stages) {
          VipsPipeline.runFrom(sized, recipe, upright, output, Watermark.of(step));
          return;
        }
      } else if (whole != null) {
        checkMemory(
            source,
            source.decodeCost(source.width(), source.height()),
            (long) source.width() * source.height(),
            outputPixels,
            shown);
        boolean keepAlpha = keepAlpha(recipe, whole, upright, background);
        BufferedImage cut =
            Pixels.normalize(
                Pixels.copy(whole.getSubimage(crop.x, crop.y, crop.width, crop.height)), keepAlpha);
        whole = null;
        sized = Pixels.resize(cut, upright.scaledWidth(), upright.scaledHeight());
      } else {
        Rectangle region = orientation.toStored(crop, source.width(), source.height());
        int subsampling = subsampling(region.width, region.height, storedWidth, storedHeight);
        checkMemory(
            source,
            source.regionCost(region, subsampling),
            (long) Math.ceilDiv(region.width, subsampling)
                * Math.ceilDiv(region.height, subsampling),
            outputPixels,
            shown);
        BufferedImage decoded = ColourManagement.toSrgb(source.decodeRegion(region, subsampling));
        boolean keepAlpha = keepAlpha(recipe, decoded, upright, background);
        BufferedImage cut = orientation.apply(Pixels.normalize(decoded, keepAlpha));
        sized = Pixels.resize(cut, upright.scaledWidth(), upright.scaledHeight());
      }
      if (recipe.background() != null) {
        // the picture's own alpha, before padding: what a contain or pad adds is the colour itself
        sized = Canvas.flatten(sized, recipe.background());
      }
      BufferedImage placed =
          recipe.box() == null
              ? Canvas.centre(sized, upright.width(), upright.height(), background)
              : recipe
                  .box()
                  .gravity()
                  .crop(sized, upright.width(), upright.height(), background, recipe.rotate());
      BufferedImage shaped = Effects.apply(Geometry.apply(placed, recipe), recipe);
      if (pad != null) {
        shaped = pad.apply(shaped, background, ImageEncoder.keepsAlpha(recipe.mediaType()));
      }
      ImageEncoder.write(Watermark.apply(step, shaped), recipe, output);
    }
  }

  /**
   * The whole image, upright, at full size, in sRGB with its alpha ({@value ImageRecipe#TRIM} needs
   * every pixel), once the decode and {@value #DECODED_COPIES} copies fit the budget.
   *
   * @throws PermanentStepFailure {@code input-too-large} when they do not
   */
  private BufferedImage decodeWhole(ImageSource source, Orientation orientation) {
    long pixels = (long) source.width() * source.height();
    budget.check(
        source
            .decodeCost(source.width(), source.height())
            .plus(MemoryEstimate.heap((double) INT_PIXEL_BYTES * DECODED_COPIES * pixels)),
        "decoding " + source.describe() + " whole to trim its border");
    BufferedImage decoded = ColourManagement.toSrgb(source.decode(1));
    return orientation.apply(Pixels.normalize(decoded, decoded.getColorModel().hasAlpha()));
  }

  private static boolean keepAlpha(
      ImageRecipe recipe, BufferedImage decoded, Placement upright, Color background) {
    // alpha is kept to the flatten onto the background, whatever the format
    return (ImageEncoder.keepsAlpha(recipe.mediaType()) || recipe.background() != null)
        && (decoded.getColorModel().hasAlpha() || (upright.pads() && background.getAlpha() < 0xFF));
  }

  /**
   * Refuses the step before decoding when the decode ({@code decode}, from the source's header) and
   * the pipeline after it ({@value #DECODED_COPIES} copies of the {@code decodedPixels} and {@value
   * #OUTPUT_COPIES} of the {@code outputPixels}, {@value #INT_PIXEL_BYTES} bytes a pixel, on the
   * heap) do not fit the budget.
   *
   * @throws PermanentStepFailure {@code input-too-large}
   */
  private void checkMemory(
      ImageSource source,
      MemoryEstimate decode,
      long decodedPixels,
      long outputPixels,
      Placement shown) {
    MemoryEstimate pipeline =
        MemoryEstimate.heap(
            (double) INT_PIXEL_BYTES
                * (DECODED_COPIES * (double) decodedPixels
                    + OUTPUT_COPIES * (double) outputPixels));
    budget.check(decode.plus(pipeline), work(source, shown));
  }

  /** The work a memory refusal names: decoding the source and making the shown image. */
  private static String work(ImageSource source, Placement shown) {
    return "decoding "
        + source.describe()
        + " and making a "
        + shown.width()
        + "x"
        + shown.height()
        + " image of it";
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

  /**
   * @throws PermanentStepFailure {@code output-too-large} if {@code width} x {@code height} is over
   *     the pixel limit
   */
  private void checkOutputSize(int width, int height) {
    if ((long) width * height > maxPixels) {
      throw new PermanentStepFailure(
          StepErrorTypes.OUTPUT_TOO_LARGE,
          "output of "
              + width
              + "x"
              + height
              + " pixels is over the limit of "
              + maxPixels
              + " pixels");
    }
  }

  /**
   * The largest decode subsampling that still leaves at least {@link #MIN_OVERSAMPLING} source
   * pixels per target pixel in both directions (1 = decode every pixel).
   */
  static int subsampling(int sourceWidth, int sourceHeight, int targetWidth, int targetHeight) {
    int byWidth = sourceWidth / (MIN_OVERSAMPLING * targetWidth);
    int byHeight = sourceHeight / (MIN_OVERSAMPLING * targetHeight);
    return Math.max(1, Math.min(byWidth, byHeight));
  }
}
