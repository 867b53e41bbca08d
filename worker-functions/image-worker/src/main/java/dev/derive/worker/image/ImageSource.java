package dev.derive.worker.image;

import java.awt.image.BufferedImage;
import java.io.IOException;

/**
 * An input image opened for decoding, its size known and checked against the pixel limit before any
 * pixel is decoded: {@link SourceImage} (ImageIO) or {@link VipsSource} (libvips).
 */
interface ImageSource extends AutoCloseable {
  /** Width in pixels, in the orientation {@link #decode} returns (before {@link #orientation}). */
  int width();

  /** Height in pixels, in the orientation {@link #decode} returns. */
  int height();

  /** The rotation or mirroring still to apply to what {@link #decode} returns. */
  Orientation orientation();

  /**
   * Decodes the image, keeping about every {@code subsampling}-th pixel in both directions (1 =
   * all); a source may return more pixels than asked, never fewer.
   *
   * @throws dev.derive.worker.runtime.PermanentStepFailure {@code corrupt-input} or {@code
   *     unsupported-input}
   */
  BufferedImage decode(int subsampling);

  /**
   * Decodes the image for a resize to {@code width} x {@code height} (in the orientation {@link
   * #decode} returns): by default {@link #decode} subsampled to no less than three source pixels
   * per target pixel ({@link ImageTransformer#subsampling}), for the caller's Lanczos resample; a
   * source that resamples well itself may return that size, or close to it, directly.
   */
  default BufferedImage decodeScaled(int width, int height) {
    return decode(ImageTransformer.subsampling(width(), height(), width, height));
  }

  @Override
  void close() throws IOException;
}
