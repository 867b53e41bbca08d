package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsException;
import java.nio.file.Path;
import java.util.List;

/**
 * An image step as stages over one libvips image (docs/image-pipeline.md): decode with
 * shrink-on-load (upright, colour-managed: {@link VipsSource#decodeCovering}), normalise to 8-bit
 * sRGB ({@link NormaliseStage}), resize to the exact size ({@link ResizeStage}), flatten onto an
 * opaque background ({@link BackgroundStage}), crop a cover's overflow at its gravity, smart or
 * focal ({@link CropStage}), pad a contain ({@link CanvasStage}), rotate, flip and flop ({@link
 * GeometryStage}), blur and sharpen ({@link EffectsStage}), add the border ({@link PadStage}), lay
 * the watermark over it ({@link WatermarkStage}) and encode with libvips' saver ({@link
 * EncodeStage}). The pixels never enter Java: libvips decodes only what the saver pulls through the
 * stages.
 *
 * <p>A source libvips reads ({@link VipsSource}, not PQ HDR) is decoded by the first stage; any
 * other is decoded, oriented and resized by the Java2D backend and imported once ({@link
 * #runFrom}), then takes the same stages. A recipe with operations the stages lack (a crop or trim,
 * greyscale, a translucent background, BMP/TIFF output), or a process without libvips, takes the
 * Java path of {@link ImageTransformer} end to end.
 */
final class VipsPipeline {
  /**
   * Bytes a pixel takes in libvips' buffers at the output size (8-bit RGBA), and how many such
   * buffers the stages after the decode hold at once (the resample's, the in-memory copy a smart
   * crop, turn or effect reads, the crop or canvas', the saver's).
   */
  private static final int PIXEL_BYTES = 4;

  private static final int OUTPUT_COPIES = 4;

  private static final List<Stage> AFTER_DECODE =
      List.of(
          new NormaliseStage(),
          new ResizeStage(),
          new BackgroundStage(),
          new CropStage(),
          new CanvasStage(),
          new GeometryStage(),
          new EffectsStage(),
          new PadStage(),
          new WatermarkStage(),
          new EncodeStage());

  private VipsPipeline() {}

  /** Whether the stages make {@code recipe} from {@code source}, decoded by libvips. */
  static boolean accepts(ImageRecipe recipe, ImageSource source) {
    return source instanceof VipsSource vips && vips.staysInLibvips() && takes(recipe);
  }

  /**
   * Whether the stages after the decode make {@code recipe}: libvips is loaded and the recipe has
   * only operations the stages have.
   */
  static boolean takes(ImageRecipe recipe) {
    return Vips.available()
        && recipe.crop() == null
        && recipe.trim() == null
        && !recipe.greyscale()
        && (recipe.background() == null || recipe.background().getAlpha() == 0xFF)
        && EncodeStage.writes(recipe.mediaType());
  }

  /**
   * What the stages need at their peak: the decode ({@link VipsSource#stagesCost} of {@code
   * decodedWidth} x {@code decodedHeight}) and {@value #OUTPUT_COPIES} buffers of {@code
   * outputPixels}, all off the heap.
   */
  static MemoryEstimate cost(
      VipsSource source, int decodedWidth, int decodedHeight, long outputPixels) {
    return source.stagesCost(decodedWidth, decodedHeight).plus(outputCost(outputPixels));
  }

  /** The stages' buffers after the decode: {@value #OUTPUT_COPIES} of the output, off the heap. */
  static MemoryEstimate outputCost(long outputPixels) {
    return new MemoryEstimate(0, (long) PIXEL_BYTES * OUTPUT_COPIES * outputPixels);
  }

  /**
   * Runs the stages after the decode ({@code watermark}: the step's, {@code null} without one) on a
   * picture the Java2D backend decoded (ImageIO, FFmpeg's HEIC, the PQ tone map, SVG): {@code
   * sized}, upright at {@code placement}'s scaled size, imported into libvips once.
   *
   * @throws VipsException if libvips fails to make or write the image
   */
  static void runFrom(
      java.awt.image.BufferedImage sized,
      ImageRecipe recipe,
      Placement placement,
      Path output,
      Watermark watermark) {
    try (PipelineContext context =
        new PipelineContext(Vips.shared(), recipe, placement, output, watermark)) {
      context.replace(VipsPixels.toVips(sized));
      for (Stage stage : AFTER_DECODE) {
        stage.apply(context);
      }
    }
  }

  /**
   * Runs the stages: {@code source} decoded to cover {@code placement}'s scaled size, written to
   * {@code output}.
   *
   * @throws dev.derive.worker.runtime.PermanentStepFailure {@code corrupt-input} or {@code
   *     unsupported-input} when libvips cannot decode the pixels
   */
  static void run(
      VipsSource source,
      ImageRecipe recipe,
      Placement placement,
      Path output,
      Watermark watermark) {
    try (PipelineContext context =
        new PipelineContext(Vips.shared(), recipe, placement, output, watermark)) {
      context.replace(source.decodeCovering(placement.scaledWidth(), placement.scaledHeight()));
      for (Stage stage : AFTER_DECODE) {
        stage.apply(context);
      }
    } catch (VipsException e) {
      throw source.decodeFailure(e); // pixels are decoded lazily, while the saver pulls them
    }
  }
}
