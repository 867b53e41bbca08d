package dev.derive.worker.image;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsException;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Animated output (the encode operation's {@code animated}): every frame of an animated GIF or WebP
 * resized by libvips' {@code thumbnail} over all pages ({@code n=-1}) and written as an animated
 * GIF or WebP by libvips' savers, which keep each frame's delay and the loop count. Only a resize
 * that fits inside its box (never enlarging) and the encoder's options apply; any other operation
 * is refused, as is a source over {@value #MAX_FRAMES} frames or whose frames together, decoded or
 * made, exceed the pixel limit. A source of one frame, or an output format without animation (JPEG,
 * PNG, AVIF), takes the ordinary first-frame path.
 */
final class Animation {
  /** Most frames an animation may have (imgproxy's frame limit, set high). */
  static final int MAX_FRAMES = 1000;

  /** The header field naming the loader libvips chose. */
  private static final String LOADER = "vips-loader";

  /** libvips' {@code VIPS_MAX_COORD}: a box side that does not constrain. */
  private static final int UNBOUNDED = 10_000_000;

  /** Bytes a decoded RGBA pixel of a frame takes in libvips, and the copies held while saving. */
  private static final int PIXEL_BYTES = 4;

  private static final int COPIES = 2;

  private Animation() {}

  /**
   * An animation's header, read once: its frames, its width, the height of one frame (the first
   * page, as opened) and whether it carries an ICC profile (only then is the thumbnail asked for an
   * sRGB export, which without one made lcms transform every pixel of every frame sRGB to sRGB).
   */
  record Frames(int count, int width, int frameHeight, boolean icc) {}

  /**
   * The frames of {@code input} when {@code recipe} asks for an animation and can have one: it says
   * {@code animated}, writes GIF or WebP, and {@code input} is, by the loader libvips picks from
   * its bytes, a GIF or WebP of more than one frame; else {@code null}.
   */
  static Frames frames(ImageRecipe recipe, Path input) {
    if (!recipe.animated()
        || !(MediaTypes.IMAGE_GIF.equals(recipe.mediaType())
            || MediaTypes.IMAGE_WEBP.equals(recipe.mediaType()))
        || recipe.page() != 1) {
      return null;
    }
    try (VipsImage header = Vips.shared().open(input)) {
      String loader = header.string(LOADER).orElse("");
      boolean animation =
          (loader.startsWith("gifload") || loader.startsWith("webpload")) && header.pages() > 1;
      return animation
          ? new Frames(
              header.pages(), header.width(), header.height(), header.has(VipsImage.ICC_PROFILE))
          : null;
    } catch (VipsException e) {
      return null; // not readable as an animation: the ordinary path says what is wrong
    }
  }

  /**
   * Writes the resized animation of {@code input}, whose header {@code frames} is, to {@code
   * output}.
   *
   * @throws PermanentStepFailure {@code invalid-step} for an operation animations do not take yet,
   *     {@code input-too-large} over the frame or pixel limits or the memory budget, {@code
   *     output-too-large} for frames that together exceed the pixel limit, {@code corrupt-input}
   *     when libvips cannot decode it
   */
  static void write(
      ImageRecipe recipe,
      Frames header,
      Path input,
      long maxPixels,
      MemoryBudget budget,
      Path output) {
    refuseOtherOperations(recipe);
    Vips vips = Vips.shared();
    int frames = header.count();
    int width = header.width();
    int frameHeight = header.frameHeight();
    if (frames > MAX_FRAMES) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          "the animation has " + frames + " frames; at most " + MAX_FRAMES + " are made");
    }
    long inputPixels = (long) width * frameHeight * frames;
    if (inputPixels > maxPixels) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          frames
              + " frames of "
              + width
              + "x"
              + frameHeight
              + " are "
              + inputPixels
              + " pixels, over the limit of "
              + maxPixels);
    }
    ResizeBox box = recipe.box();
    int boxWidth = box == null || box.width() == null ? UNBOUNDED : box.width();
    int boxHeight = box == null || box.height() == null ? UNBOUNDED : box.height();
    Placement placed =
        box == null ? Placement.unchanged(width, frameHeight) : box.place(width, frameHeight);
    long outputPixels = (long) placed.width() * placed.height() * frames;
    if (outputPixels > maxPixels) {
      throw new PermanentStepFailure(
          StepErrorTypes.OUTPUT_TOO_LARGE,
          frames
              + " frames of "
              + placed.width()
              + "x"
              + placed.height()
              + " are over the limit of "
              + maxPixels
              + " pixels");
    }
    budget.check(
        new MemoryEstimate(0, (long) PIXEL_BYTES * COPIES * (inputPixels + outputPixels)),
        "making " + frames + " frames of " + placed.width() + "x" + placed.height());
    try (VipsImage resized =
        header.icc()
            ? vips.thumbnail(input, boxWidth, boxHeight, "n=-1")
            : vips.operation("thumbnail")
                .set("filename", input + "[n=-1]")
                .set("width", boxWidth)
                .set("height", boxHeight)
                .set("size", "down")
                .set("fail_on", "error")
                .image()) {
      int effort =
          ImageEncoder.effort(
              recipe.mediaType(), recipe.effort(), (long) resized.width() * resized.height());
      if (MediaTypes.IMAGE_WEBP.equals(recipe.mediaType())) {
        vips.saveWebp(resized, output, recipe.quality(), recipe.lossless(), effort);
      } else {
        vips.saveGif(resized, output, effort);
      }
    } catch (VipsException e) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT, "a frame of the animation cannot be decoded");
    }
  }

  private static void refuseOtherOperations(ImageRecipe recipe) {
    List<String> others = new ArrayList<>();
    if (recipe.trim() != null) {
      others.add(ImageRecipe.TRIM);
    }
    if (recipe.crop() != null) {
      others.add(ImageRecipe.CROP);
    }
    if (recipe.rotate() != 0) {
      others.add(ImageRecipe.ROTATE);
    }
    if (recipe.flip()) {
      others.add(ImageRecipe.FLIP);
    }
    if (recipe.flop()) {
      others.add(ImageRecipe.FLOP);
    }
    if (recipe.greyscale()) {
      others.add(ImageRecipe.GREYSCALE);
    }
    if (Effects.any(recipe)) {
      others.add("blur or sharpen");
    }
    if (recipe.pad() != null) {
      others.add(ImageRecipe.PAD);
    }
    if (recipe.background() != null) {
      others.add(ImageRecipe.BACKGROUND);
    }
    ResizeBox box = recipe.box();
    if (box != null && (box.fit() != Fit.INSIDE || !box.withoutEnlargement())) {
      others.add("a resize other than fit inside without enlargement");
    }
    if (!others.isEmpty()) {
      throw new PermanentStepFailure(
          StepErrorTypes.INVALID_STEP,
          "an animated output takes only a resize inside its box and the encoder's options, not "
              + String.join(", ", others)
              + "; leave out animated for the first frame");
    }
  }
}
