package dev.derive.worker.image;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.Capabilities;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.util.Set;

/**
 * What an image step asks for, read from its operations ({@link Capabilities#RESIZE}, {@link
 * Capabilities#ENCODE}; see {@link Capabilities#IMAGE_CAPABILITY} for their parameters).
 *
 * @param box the resize box, or {@code null} to keep the (oriented) size
 * @param mediaType output media type, {@code image/jpeg} or {@code image/png}
 * @param quality JPEG quality 1..100
 */
public record ImageRecipe(FitInside box, String mediaType, int quality) {
  /** Default JPEG quality, as declared by the {@code encode} operation. */
  public static final int DEFAULT_QUALITY = 85;

  private static final Set<String> WRITABLE = Set.of(MediaTypes.IMAGE_JPEG, MediaTypes.IMAGE_PNG);

  /**
   * Reads the recipe of {@code step}. The output media type is the {@code encode} operation's, else
   * the step's {@code outputMediaType}, else JPEG.
   *
   * @throws PermanentStepFailure {@code invalid-step} for an unknown operation, a parameter out of
   *     range, an unsupported fit or output type, or an encode type differing from the step's
   */
  public static ImageRecipe of(StepMessage step) {
    FitInside box = null;
    String mediaType = null;
    int quality = DEFAULT_QUALITY;
    for (Operation op : step.operations()) {
      switch (op.operation()) {
        case Capabilities.RESIZE -> box = box(op);
        case Capabilities.ENCODE -> {
          mediaType = essence(op.stringParam("mediaType", MediaTypes.IMAGE_JPEG));
          quality = op.intParam("quality", DEFAULT_QUALITY);
          if (quality < 1 || quality > 100) {
            throw invalid("encode quality must be 1..100, not " + quality);
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
    return new ImageRecipe(box, mediaType, quality);
  }

  private static FitInside box(Operation op) {
    String fit = op.stringParam("fit", "inside");
    if (!fit.equals("inside")) {
      throw invalid("resize fit '" + fit + "' is not supported (only 'inside')");
    }
    Integer width = dimension(op, "width");
    Integer height = dimension(op, "height");
    if (width == null && height == null) {
      throw invalid("resize needs a width or a height");
    }
    return new FitInside(width, height, op.booleanParam("withoutEnlargement", true));
  }

  private static Integer dimension(Operation op, String name) {
    if (op.params().get(name) == null) {
      return null;
    }
    int value = op.intParam(name, -1);
    if (value < 1 || value > Capabilities.MAX_DIMENSION) {
      throw invalid(
          "resize " + name + " must be 1.." + Capabilities.MAX_DIMENSION + ", not " + value);
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
