package dev.derive.worker.image;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsException;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Rectangle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Animated output (the encode operation's {@code animated}, docs/animation.md): every frame of an
 * animated GIF or WebP made as a still would be, written as an animated GIF or WebP by libvips'
 * savers (which keep each frame's delay and the loop count) or as an animated AVIF by FFmpeg
 * ({@link AnimatedAvif}). All frames are resized at once by {@code thumbnail} over all pages (with
 * a fixed crop, loaded whole and the crop cut from each frame first), then made one by one ({@link
 * AnimationFrames}). A trim is refused (each frame would trim differently), as is a source over
 * {@value #MAX_FRAMES} frames or whose frames together, decoded or made, exceed the pixel limit. A
 * source of one frame, or an output format without animation (JPEG, PNG), takes the ordinary
 * first-frame path.
 */
final class Animation {
  /** Most frames an animation may have (imgproxy's frame limit, set high). */
  static final int MAX_FRAMES = 1000;

  /** The header field naming the loader libvips chose. */
  private static final String LOADER = "vips-loader";

  /** The header fields of each frame's delay (ms) and of the loop count (0: forever). */
  private static final String DELAY = "delay";

  private static final String LOOP = "loop";

  /** Bytes a decoded RGBA pixel of a frame takes in libvips, and the copies held while saving. */
  private static final int PIXEL_BYTES = 4;

  private static final int COPIES = 2;

  private Animation() {}

  /**
   * An animation's header, read once: its frames, its width, the height of one frame (the first
   * page, as opened), whether it carries an ICC profile (only then is the thumbnail asked for an
   * sRGB export, which without one made lcms transform every pixel of every frame sRGB to sRGB) and
   * the libvips loader that read it ({@code gifload}, {@code webpload}).
   */
  record Frames(int count, int width, int frameHeight, boolean icc, String loader) {}

  /**
   * The frames of {@code input} when {@code recipe} asks for an animation and can have one: it says
   * {@code animated}, writes GIF, WebP or AVIF, and {@code input} is, by the loader libvips picks
   * from its bytes, a GIF or WebP of more than one frame; else {@code null}.
   */
  static Frames frames(ImageRecipe recipe, Path input) {
    if (!recipe.animated()
        || !(MediaTypes.IMAGE_GIF.equals(recipe.mediaType())
            || MediaTypes.IMAGE_WEBP.equals(recipe.mediaType())
            || MediaTypes.IMAGE_AVIF.equals(recipe.mediaType()))
        || recipe.page() != 1) {
      return null;
    }
    try (VipsImage header = Vips.shared().open(input)) {
      String loader = header.string(LOADER).orElse("");
      boolean animation =
          (loader.startsWith("gifload") || loader.startsWith("webpload")) && header.pages() > 1;
      return animation
          ? new Frames(
              header.pages(),
              header.width(),
              header.height(),
              header.has(VipsImage.ICC_PROFILE),
              loader.replace("_source", "").replace("_buffer", ""))
          : null;
    } catch (VipsException e) {
      return null; // not readable as an animation: the ordinary path says what is wrong
    }
  }

  /**
   * Writes the animation of {@code input}, whose header {@code header} is, made as {@code recipe}
   * says with {@code watermark} ({@code null} for none) on every frame, to {@code output}.
   *
   * @throws PermanentStepFailure {@code invalid-step} for a trim or a crop outside the frame,
   *     {@code input-too-large} over the frame or pixel limits or the memory budget or (AVIF) the
   *     scratch space, {@code output-too-large} for frames that together exceed the pixel limit,
   *     {@code corrupt-input} when libvips cannot decode it
   */
  static void write(
      ImageRecipe recipe,
      Frames header,
      Path input,
      long maxPixels,
      MemoryBudget budget,
      Watermark watermark,
      Path output) {
    refuseOtherOperations(recipe);
    int frames = header.count();
    if (frames > MAX_FRAMES) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          "the animation has " + frames + " frames; at most " + MAX_FRAMES + " are made");
    }
    long inputPixels = (long) header.width() * header.frameHeight() * frames;
    if (inputPixels > maxPixels) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          frames
              + " frames of "
              + header.width()
              + "x"
              + header.frameHeight()
              + " are "
              + inputPixels
              + " pixels, over the limit of "
              + maxPixels);
    }
    Rectangle crop =
        recipe.crop() == null ? null : recipe.crop().on(header.width(), header.frameHeight());
    Placement upright =
        placement(
            recipe,
            crop == null ? header.width() : crop.width,
            crop == null ? header.frameHeight() : crop.height);
    long framePixels = framePixels(recipe, upright);
    long outputPixels = framePixels * frames;
    if (outputPixels > maxPixels) {
      throw new PermanentStepFailure(
          StepErrorTypes.OUTPUT_TOO_LARGE,
          frames
              + " frames of "
              + upright.width()
              + "x"
              + upright.height()
              + " are over the limit of "
              + maxPixels
              + " pixels");
    }
    if (MediaTypes.IMAGE_AVIF.equals(recipe.mediaType())) {
      Padding pad = recipe.pad();
      AnimatedAvif.checkScratch(
          frames,
          pad == null ? upright.width() : pad.width(upright.width()),
          pad == null ? upright.height() : pad.height(upright.height()));
    }
    budget.check(
        new MemoryEstimate(0, (long) PIXEL_BYTES * COPIES * inputPixels)
            .plus(VipsPipeline.outputCost(outputPixels)),
        "making " + frames + " frames of " + upright.width() + "x" + upright.height());
    Vips vips = Vips.shared();
    try (VipsImage roll = decode(vips, recipe, header, input, crop, upright);
        VipsImage made =
            AnimationFrames.make(vips, roll, frames, recipe, upright, crop, watermark, output)) {
      int effort =
          ImageEncoder.animationEffort(
              recipe.mediaType(), recipe.effort(), (long) made.width() * made.height() / frames);
      if (MediaTypes.IMAGE_AVIF.equals(recipe.mediaType())) {
        AnimatedAvif.write(
            vips,
            made,
            frames,
            made.ints(DELAY).orElse(null),
            made.integer(LOOP).orElse(0),
            recipe.quality(),
            effort,
            background(recipe),
            output);
      } else if (MediaTypes.IMAGE_WEBP.equals(recipe.mediaType())) {
        vips.saveWebp(made, output, recipe.quality(), recipe.lossless(), effort);
      } else {
        vips.saveGif(made, output, effort);
      }
    } catch (VipsException e) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT, "a frame of the animation cannot be decoded", e);
    }
  }

  /**
   * Where each frame of {@code width} x {@code height} (cropped, upright) goes: the box fitted to
   * the frame as the caller sees it (turned when the rotation turns it), then turned back, as
   * {@link ImageTransformer} places a still.
   */
  private static Placement placement(ImageRecipe recipe, int width, int height) {
    boolean turned = recipe.rotationSwapsAxes();
    int shownWidth = turned ? height : width;
    int shownHeight = turned ? width : height;
    Placement shown =
        recipe.box() == null
            ? Placement.unchanged(shownWidth, shownHeight)
            : recipe.box().place(shownWidth, shownHeight);
    return turned ? shown.transposed() : shown;
  }

  /**
   * What an AVIF's frames are flattened onto: the step's background (a translucent one made opaque:
   * the sequence has no alpha), else white.
   */
  private static double[] background(ImageRecipe recipe) {
    java.awt.Color colour = recipe.background();
    return colour == null
        ? NormaliseStage.WHITE
        : new double[] {colour.getRed(), colour.getGreen(), colour.getBlue()};
  }

  /**
   * The most pixels one frame has on its way: scaled, placed, or with its border, which {@link
   * PadStage} adds after {@link GeometryStage} has turned the frame (so around the turned size).
   */
  private static long framePixels(ImageRecipe recipe, Placement upright) {
    long pixels =
        Math.max(
            (long) upright.scaledWidth() * upright.scaledHeight(),
            (long) upright.width() * upright.height());
    Padding pad = recipe.pad();
    if (pad == null) {
      return pixels;
    }
    boolean turned = recipe.rotationSwapsAxes();
    int width = turned ? upright.height() : upright.width();
    int height = turned ? upright.width() : upright.height();
    return Math.max(pixels, (long) pad.width(width) * pad.height(height));
  }

  /**
   * All frames stacked, each {@code upright}'s scaled size, 8-bit sRGB: {@code thumbnail} over all
   * pages (exact size: {@code force}); with a crop, every page loaded, the crop cut from each and
   * left to the {@link ResizeStage}. In memory when the frames will be read out of order.
   */
  private static VipsImage decode(
      Vips vips, ImageRecipe recipe, Frames header, Path input, Rectangle crop, Placement upright) {
    VipsImage roll =
        crop != null
            ? vips.operation(header.loader())
                .set("filename", input.toString())
                .set("n", -1)
                .set("fail_on", "error")
                .image()
            : vips.operation("thumbnail")
                .set("filename", input + "[n=-1]")
                .set("width", upright.scaledWidth())
                .set("height", upright.scaledHeight())
                .set("size", "force")
                .set("fail_on", "error")
                .set("export_profile", header.icc() ? "srgb" : null)
                .image();
    if (!AnimationFrames.onlyResized(recipe) || crop != null) {
      try (roll) {
        return vips.copyMemory(roll);
      }
    }
    return roll;
  }

  private static void refuseOtherOperations(ImageRecipe recipe) {
    List<String> others = new ArrayList<>();
    if (recipe.trim() != null) {
      others.add(ImageRecipe.TRIM + " (each frame would lose a different border)");
    }
    if (!others.isEmpty()) {
      throw new PermanentStepFailure(
          StepErrorTypes.INVALID_STEP,
          "an animated output does not take "
              + String.join(", ", others)
              + "; leave out animated for the first frame");
    }
  }
}
