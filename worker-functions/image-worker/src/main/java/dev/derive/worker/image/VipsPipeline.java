package dev.derive.worker.image;

import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsException;
import dev.derive.worker.libvips.VipsImage;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;

/**
 * An image step as stages over one libvips image (docs/image-pipeline.md): decode with
 * shrink-on-load (upright, colour-managed: {@link VipsSource#decodeCovering}; a crop's region only,
 * {@link VipsSource#decodeRegionCovering}; a trim's whole image, {@link VipsSource#decodeWhole},
 * cut by {@link #runCut}), normalise to 8-bit sRGB ({@link NormaliseStage}), resize to the exact
 * size ({@link ResizeStage}), flatten onto the background ({@link BackgroundStage}), crop a cover's
 * overflow at its gravity, smart or focal ({@link CropStage}), pad a contain ({@link CanvasStage}),
 * rotate, flip, flop and greyscale ({@link GeometryStage}), blur and sharpen ({@link
 * EffectsStage}), add the border ({@link PadStage}), lay the watermark over it ({@link
 * WatermarkStage}) and encode ({@link EncodeStage}). The pixels never enter Java: libvips decodes
 * only what the saver pulls through the stages.
 *
 * <p>A source libvips reads ({@link VipsSource}, not PQ HDR) is decoded by the first stage; any
 * other is decoded, oriented and resized (or, for a trim, decoded whole) by the Java2D backend and
 * imported once ({@link #runFrom}, {@link #runCut}), then takes the same stages. Only a process
 * without libvips ends the step in Java ({@link Java2dBackend}).
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

  /** Whether the first stage decodes {@code source}: libvips reads it (not PQ HDR). */
  static boolean accepts(ImageSource source) {
    return source instanceof VipsSource vips && vips.staysInLibvips();
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
   * @throws dev.derive.worker.libvips.VipsException if libvips fails to make or write the image
   */
  static void runFrom(
      BufferedImage sized,
      ImageRecipe recipe,
      Placement placement,
      Path output,
      Watermark watermark) {
    try (PipelineContext context =
        new PipelineContext(Vips.shared(), recipe, placement, output, watermark)) {
      context.replace(VipsPixels.toVips(sized));
      runStages(context);
    }
  }

  /**
   * Runs the stages from {@code region} of {@code whole} (a trim's decode: the upright image in
   * memory, libvips' or the Java2D backend's imported), resized by {@link ResizeStage}; the caller
   * closes {@code whole}.
   */
  static void runCut(
      VipsImage whole,
      Rectangle region,
      ImageRecipe recipe,
      Placement placement,
      Path output,
      Watermark watermark) {
    Vips vips = Vips.shared();
    try (PipelineContext context =
        new PipelineContext(vips, recipe, placement, output, watermark)) {
      context.replace(vips.extractArea(whole, region.x, region.y, region.width, region.height));
      runStages(context);
    }
  }

  /**
   * Runs the stages: {@code source} decoded to cover {@code placement}'s scaled size (only {@code
   * region} of it, upright, when not {@code null}), written to {@code output}.
   *
   * @throws dev.derive.worker.runtime.PermanentStepFailure {@code corrupt-input} or {@code
   *     unsupported-input} when libvips cannot decode the pixels
   */
  static void run(
      VipsSource source,
      Rectangle region,
      ImageRecipe recipe,
      Placement placement,
      Path output,
      Watermark watermark) {
    try (PipelineContext context =
        new PipelineContext(Vips.shared(), recipe, placement, output, watermark)) {
      int width = placement.scaledWidth();
      int height = placement.scaledHeight();
      context.replace(
          region == null
              ? source.decodeCovering(width, height)
              : source.decodeRegionCovering(region, width, height));
      runStages(context);
    } catch (VipsException e) {
      throw source.decodeFailure(e); // pixels are decoded lazily, while the saver pulls them
    }
  }

  private static void runStages(PipelineContext context) {
    for (Stage stage : AFTER_DECODE) {
      stage.apply(context);
    }
  }
}
