package dev.derive.worker.image;

import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.Parameters;
import java.awt.Color;

/**
 * What an image step asks for, read from its operations as the image capability declares them
 * (META-INF/derive/capability.json: names, ranges, defaults and the order they apply in), which the
 * worker runtime has already checked ({@link DeclaredStep}): {@value #PAGE}, {@value #CROP},
 * {@value #ROTATE} ({@code angle} 90, 180 or 270, clockwise), {@value #RESIZE}, {@value #FLIP}
 * (mirror top to bottom), {@value #FLOP} (mirror left to right), {@value #GREYSCALE} and {@value
 * #ENCODE}, with sharp's meanings, in that declared order: the crop is cut from the upright image,
 * the rotation comes before the resize box is fitted (the box fits the turned image), mirroring and
 * greyscale after.
 *
 * @param crop the region cut out of the upright image before resizing, or {@code null} for all of
 *     it
 * @param box the resize box (size, fit, enlargement, gravity), or {@code null} to keep the
 *     (oriented) size
 * @param mediaType output media type, one the declaration's {@code encode} allows
 * @param quality JPEG, WebP or AVIF quality (GIF has none: its palette is chosen by effort)
 * @param progressive whether a JPEG is written progressive
 * @param rotate clockwise rotation in degrees: 0, 90, 180 or 270
 * @param flip whether to mirror top to bottom
 * @param flop whether to mirror left to right
 * @param greyscale whether to drop colour
 * @param page 1-based page (TIFF) or frame (GIF) to decode
 * @param lossless whether a WebP is written lossless (quality is then ignored)
 * @param effort WebP/AVIF/GIF encoder effort, 0 (fastest) to 9 (smallest; WebP stops at 6, so 7..9
 *     mean 6), or {@value #FORMAT_EFFORT} when the step gives none: then each format's default
 *     ({@link ImageEncoder#effort})
 * @param blur Gaussian sigma in output pixels, 0 for none
 * @param sharpen unsharp-mask sigma in tenths of a pixel, 0 for none
 * @param pad the border added around the finished image, or {@code null} for none
 * @param animated whether an animated GIF or WebP source keeps every frame in a GIF or WebP output
 *     ({@link Animation})
 * @param trim the uniform border cut off the upright image before anything else, or {@code null} to
 *     keep it
 * @param background the colour the resized picture's alpha is flattened onto, which also fills what
 *     a contain resize and {@value #PAD} add, or {@code null} for none (padding is then transparent
 *     where the format keeps alpha, else white)
 */
public record ImageRecipe(
    CropRegion crop,
    ResizeBox box,
    String mediaType,
    int quality,
    boolean progressive,
    int rotate,
    boolean flip,
    boolean flop,
    boolean greyscale,
    int page,
    boolean lossless,
    int effort,
    int blur,
    int sharpen,
    Padding pad,
    Trim trim,
    boolean animated,
    Color background) {
  /** Operation choosing the page (TIFF) or frame (GIF) to decode. */
  public static final String PAGE = "page";

  /** Operation cutting a uniform border off the upright image. */
  public static final String TRIM = "trim";

  /** Operation cutting a region out of the upright image. */
  public static final String CROP = "crop";

  /** Operation turning the image clockwise by {@code angle} degrees. */
  public static final String ROTATE = "rotate";

  /** Operation scaling the image into a box. */
  public static final String RESIZE = "resize";

  /** Operation mirroring the image top to bottom. */
  public static final String FLIP = "flip";

  /** Operation mirroring the image left to right. */
  public static final String FLOP = "flop";

  /** Operation dropping colour (ITU-R BT.601 luma). */
  public static final String GREYSCALE = "greyscale";

  /** Operation blurring the image (Gaussian, sigma in pixels). */
  public static final String BLUR = "blur";

  /** Operation sharpening the image (unsharp mask, sigma in tenths of a pixel). */
  public static final String SHARPEN = "sharpen";

  /** Operation flattening the resized picture's alpha onto a colour (and colouring padding). */
  public static final String BACKGROUND = "background";

  /** Operation adding a border around the finished image. */
  public static final String PAD = "pad";

  /** Operation writing the image in its output format; every step applies it. */
  public static final String ENCODE = "encode";

  /** {@link #effort} of a step that names none: the encoder uses the format's default. */
  public static final int FORMAT_EFFORT = -1;

  /** Whether the rotation turns the image on its side (swaps width and height). */
  public boolean rotationSwapsAxes() {
    return rotate % 180 != 0;
  }

  /** Reads the recipe of {@code step}, whose operations and parameters its declaration allows. */
  public static ImageRecipe of(DeclaredStep step) {
    Parameters encode = step.operation(ENCODE).orElseThrow();
    return new ImageRecipe(
        step.operation(CROP).map(ImageRecipe::crop).orElse(null),
        step.operation(RESIZE).map(ImageRecipe::box).orElse(null),
        step.outputMediaType(),
        encode.integer("quality"),
        encode.bool("progressive"),
        step.operation(ROTATE).map(r -> r.integer("angle")).orElse(0),
        step.operation(FLIP).isPresent(),
        step.operation(FLOP).isPresent(),
        step.operation(GREYSCALE).isPresent(),
        step.operation(PAGE).map(p -> p.integer("page")).orElse(1),
        encode.bool("lossless"),
        encode.optionalInteger("effort").orElse(FORMAT_EFFORT),
        step.operation(BLUR).map(b -> b.integer("blur")).orElse(0),
        step.operation(SHARPEN).map(s -> s.integer("sharpen")).orElse(0),
        step.operation(PAD)
            .map(
                p ->
                    new Padding(
                        p.integer("padTop"),
                        p.integer("padRight"),
                        p.integer("padBottom"),
                        p.integer("padLeft")))
            .orElse(null),
        step.operation(TRIM)
            .map(
                t ->
                    new Trim(
                        t.integer("trim"),
                        t.optionalString("trimColour").map(HexColour::parse).orElse(null)))
            .orElse(null),
        encode.bool("animated"),
        step.operation(BACKGROUND).map(b -> HexColour.parse(b.string("background"))).orElse(null));
  }

  /** A box at {@code left}, {@code top}, or a region placed by its gravity (default centre). */
  private static CropRegion crop(Parameters crop) {
    int width = crop.integer("width");
    int height = crop.integer("height");
    if (crop.has("left")) {
      return new CropRegion(crop.integer("left"), crop.integer("top"), width, height, null);
    }
    return new CropRegion(
        null, null, width, height, crop.optionalString("gravity").orElse(CropRegion.CENTRE));
  }

  private static ResizeBox box(Parameters resize) {
    return new ResizeBox(
        resize.has("width") ? resize.integer("width") : null,
        resize.has("height") ? resize.integer("height") : null,
        Fit.named(resize.string("fit")).orElseThrow(),
        resize.bool("withoutEnlargement"),
        new CoverGravity(
            resize.optionalString("gravity").orElse(CoverGravity.CENTRE),
            resize.optionalInteger("focusX").orElse(50),
            resize.optionalInteger("focusY").orElse(50)));
  }

  /** A recipe that only resizes and encodes (tests and the bench). */
  public ImageRecipe(ResizeBox box, String mediaType, int quality) {
    this(
        null,
        box,
        mediaType,
        quality,
        false,
        0,
        false,
        false,
        false,
        1,
        false,
        FORMAT_EFFORT,
        0,
        0,
        null,
        null,
        false,
        null);
  }
}
