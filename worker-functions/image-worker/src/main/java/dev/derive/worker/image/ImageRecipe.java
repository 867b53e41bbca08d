package dev.derive.worker.image;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.Capabilities;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Color;
import java.util.Set;

/**
 * What an image step asks for, read from its operations ({@link Capabilities#CROP}, {@link
 * Capabilities#RESIZE}, {@link Capabilities#ENCODE}; see {@link Capabilities#IMAGE_CAPABILITY} for
 * their parameters), and the geometric operations {@value #ROTATE} ({@code angle} 90, 180 or 270,
 * clockwise), {@value #FLIP} (mirror top to bottom), {@value #FLOP} (mirror left to right) and
 * {@value #GREYSCALE}, with sharp's meanings. They apply to the upright image: rotation before the
 * resize box is fitted, mirroring and greyscale after.
 *
 * @param crop the region cut out of the upright image before resizing, or {@code null} for all of
 *     it
 * @param box the resize box (size, fit, enlargement, background), or {@code null} to keep the
 *     (oriented) size
 * @param mediaType output media type: {@code image/jpeg}, {@code image/png}, {@code image/gif},
 *     {@code image/bmp}, {@code image/tiff}, {@code image/webp} or {@code image/avif}
 * @param quality JPEG, WebP or AVIF quality 1..100 (GIF has none: its palette is chosen by effort)
 * @param progressive whether a JPEG is written progressive (default {@code false})
 * @param rotate clockwise rotation in degrees: 0, 90, 180 or 270
 * @param flip whether to mirror top to bottom
 * @param flop whether to mirror left to right
 * @param greyscale whether to drop colour
 * @param page 1-based page (TIFF) or frame (GIF) to decode
 * @param lossless whether a WebP is written lossless (default {@code false}; quality is then
 *     ignored)
 * @param effort WebP/AVIF/GIF encoder effort, 0 (fastest) to 9 (smallest; WebP stops at 6, so 7..9
 *     mean 6), or {@value #FORMAT_EFFORT} when the step gives none: then each format's default
 *     ({@link ImageEncoder#effort})
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
    int effort) {
  /** Operation choosing the page (TIFF) or frame (GIF) to decode: {@code page}, 1-based. */
  public static final String PAGE = Capabilities.IMAGE_PAGE;

  /** Operation turning the image clockwise by {@code angle} degrees (90, 180 or 270). */
  public static final String ROTATE = Capabilities.ROTATE;

  /** Operation mirroring the image top to bottom. */
  public static final String FLIP = Capabilities.FLIP;

  /** Operation mirroring the image left to right. */
  public static final String FLOP = Capabilities.FLOP;

  /** Operation dropping colour (ITU-R BT.601 luma). */
  public static final String GREYSCALE = Capabilities.GREYSCALE;

  /** A recipe that only resizes and encodes. */
  public ImageRecipe(ResizeBox box, String mediaType, int quality) {
    this(null, box, mediaType, quality, false, 0, false, false, false, 1, false, FORMAT_EFFORT);
  }

  /** Whether the rotation turns the image on its side (swaps width and height). */
  public boolean rotationSwapsAxes() {
    return rotate % 180 != 0;
  }

  /** Default JPEG quality, as declared by the {@code encode} operation. */
  public static final int DEFAULT_QUALITY = 85;

  /** {@link #effort} of a step that names none: the encoder uses the format's default. */
  public static final int FORMAT_EFFORT = -1;

  /** Highest {@code effort} accepted (AVIF's 9; WebP's encoder stops at 6). */
  public static final int MAX_EFFORT = 9;

  private static final Set<String> WRITABLE =
      Set.of(
          MediaTypes.IMAGE_JPEG,
          MediaTypes.IMAGE_PNG,
          MediaTypes.IMAGE_GIF,
          MediaTypes.IMAGE_BMP,
          MediaTypes.IMAGE_TIFF,
          MediaTypes.IMAGE_WEBP,
          MediaTypes.IMAGE_AVIF);

  /**
   * Reads the recipe of {@code step}. The output media type is the {@code encode} operation's, else
   * the step's {@code outputMediaType}, else JPEG.
   *
   * @throws PermanentStepFailure {@code invalid-step} for an unknown operation, a parameter out of
   *     range, an unsupported fit or output type, or an encode type differing from the step's
   */
  public static ImageRecipe of(StepMessage step) {
    CropRegion crop = null;
    ResizeBox box = null;
    String mediaType = null;
    int quality = DEFAULT_QUALITY;
    boolean progressive = false;
    int rotate = 0;
    boolean flip = false;
    boolean flop = false;
    boolean greyscale = false;
    int page = 1;
    boolean lossless = false;
    int effort = FORMAT_EFFORT;
    for (Operation op : step.operations()) {
      switch (op.operation()) {
        case Capabilities.CROP -> crop = crop(op);
        case Capabilities.RESIZE -> box = box(op);
        case Capabilities.ENCODE -> {
          mediaType = essence(op.stringParam("mediaType", MediaTypes.IMAGE_JPEG));
          quality = op.intParam("quality", DEFAULT_QUALITY);
          if (quality < 1 || quality > 100) {
            throw invalid("encode quality must be 1..100, not " + quality);
          }
          progressive = op.booleanParam("progressive", false);
          lossless = op.booleanParam("lossless", false);
          effort = op.intParam("effort", FORMAT_EFFORT);
          if (op.params().get("effort") != null && (effort < 0 || effort > MAX_EFFORT)) {
            throw invalid("encode effort must be 0..9, not " + effort);
          }
        }
        case ROTATE -> {
          int angle = op.intParam("angle", -1);
          if (angle != 90 && angle != 180 && angle != 270) {
            throw invalid("rotate angle must be 90, 180 or 270, not " + op.params().get("angle"));
          }
          rotate = (rotate + angle) % 360;
        }
        case FLIP -> flip = !flip;
        case FLOP -> flop = !flop;
        case GREYSCALE -> greyscale = true;
        case PAGE -> {
          page = op.intParam("page", -1);
          if (page < 1) {
            throw invalid("page must be 1 or more, not " + op.params().get("page"));
          }
        }
        default -> throw invalid("the image capability has no operation '" + op.operation() + "'");
      }
    }
    String declared = step.outputMediaType() == null ? null : essence(step.outputMediaType());
    if (mediaType == null) {
      mediaType = declared == null ? MediaTypes.IMAGE_JPEG : declared;
    } else if (declared != null && !declared.equals(mediaType)) {
      throw invalid("encode writes " + mediaType + " but the step declares " + declared);
    }
    if (!WRITABLE.contains(mediaType)) {
      throw invalid("the image capability cannot write " + mediaType);
    }
    return new ImageRecipe(
        crop,
        box,
        mediaType,
        quality,
        progressive,
        rotate,
        flip,
        flop,
        greyscale,
        page,
        lossless,
        effort);
  }

  private static CropRegion crop(Operation op) {
    Integer width = dimension(op, "crop", "width");
    Integer height = dimension(op, "crop", "height");
    if (width == null || height == null) {
      throw invalid("crop needs a width and a height");
    }
    Integer left = offset(op, "left");
    Integer top = offset(op, "top");
    Object gravity = op.params().get("gravity");
    if (left != null || top != null) {
      if (left == null || top == null) {
        throw invalid("crop needs both left and top, or neither (then a gravity)");
      }
      if (gravity != null) {
        throw invalid("crop takes either left and top or a gravity, not both");
      }
      return new CropRegion(left, top, width, height, null);
    }
    String name = gravity == null ? "centre" : gravity.toString();
    if (!Capabilities.GRAVITIES.contains(name)) {
      throw invalid(
          "crop gravity '" + name + "' is not one of " + String.join(", ", Capabilities.GRAVITIES));
    }
    return new CropRegion(null, null, width, height, name);
  }

  private static Integer offset(Operation op, String name) {
    if (op.params().get(name) == null) {
      return null;
    }
    int value = op.intParam(name, -1);
    if (value < 0 || value > Capabilities.MAX_OFFSET) {
      throw invalid("crop " + name + " must be 0.." + Capabilities.MAX_OFFSET + ", not " + value);
    }
    return value;
  }

  private static ResizeBox box(Operation op) {
    String name = op.stringParam("fit", Fit.INSIDE.value());
    Fit fit =
        Fit.named(name)
            .orElseThrow(
                () ->
                    invalid(
                        "resize fit '"
                            + name
                            + "' is not one of "
                            + String.join(", ", Capabilities.FIT_MODES)));
    Integer width = dimension(op, "resize", "width");
    Integer height = dimension(op, "resize", "height");
    if (width == null && height == null) {
      throw invalid("resize needs a width or a height");
    }
    return new ResizeBox(
        width, height, fit, op.booleanParam("withoutEnlargement", true), background(op));
  }

  private static Color background(Operation op) {
    Object value = op.params().get("background");
    if (value == null) {
      return null;
    }
    try {
      return HexColour.parse(value.toString());
    } catch (IllegalArgumentException e) {
      throw invalid("resize background: " + e.getMessage());
    }
  }

  private static Integer dimension(Operation op, String operation, String name) {
    if (op.params().get(name) == null) {
      return null;
    }
    int value = op.intParam(name, -1);
    if (value < 1 || value > Capabilities.MAX_DIMENSION) {
      throw invalid(
          operation + " " + name + " must be 1.." + Capabilities.MAX_DIMENSION + ", not " + value);
    }
    return value;
  }

  private static String essence(String mediaType) {
    try {
      return MediaTypes.essence(mediaType);
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
  }

  private static PermanentStepFailure invalid(String detail) {
    return new PermanentStepFailure(StepErrorTypes.INVALID_STEP, detail);
  }
}
