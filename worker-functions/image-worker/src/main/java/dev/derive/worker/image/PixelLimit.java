package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;

/**
 * The pixel limit ({@code MAX_IMAGE_PIXELS}) on inputs, checked from a header before decoding, and
 * on the sizes an output takes on its way.
 */
final class PixelLimit {
  private PixelLimit() {}

  /**
   * @throws PermanentStepFailure {@code input-too-large} if {@code width} x {@code height} is over
   *     {@code maxPixels}
   */
  static void checkInput(long width, long height, long maxPixels) {
    if (width * height > maxPixels) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          "image of "
              + width
              + "x"
              + height
              + " pixels is over the limit of "
              + maxPixels
              + " pixels");
    }
  }

  /**
   * @throws PermanentStepFailure {@code output-too-large} if {@code width} x {@code height} is over
   *     {@code maxPixels}
   */
  static void checkOutput(long width, long height, long maxPixels) {
    if (width * height > maxPixels) {
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
}
