package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;

/** The pixel limit on inputs ({@code MAX_IMAGE_PIXELS}), checked from a header before decoding. */
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
}
