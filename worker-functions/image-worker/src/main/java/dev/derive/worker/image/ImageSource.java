package dev.derive.worker.image;

import java.awt.Dimension;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;

/**
 * An input image opened for decoding, its size known and checked against the pixel limit before any
 * pixel is decoded: {@link SourceImage} (ImageIO) or {@link VipsSource} (libvips).
 */
interface ImageSource extends AutoCloseable {
  /** Decoding keeps at least this many source pixels per target pixel before resampling. */
  int MIN_OVERSAMPLING = 3;

  /**
   * The largest decode subsampling that still leaves at least {@link #MIN_OVERSAMPLING} source
   * pixels per target pixel in both directions (1 = decode every pixel).
   */
  static int subsampling(int sourceWidth, int sourceHeight, int targetWidth, int targetHeight) {
    int byWidth = sourceWidth / (MIN_OVERSAMPLING * targetWidth);
    int byHeight = sourceHeight / (MIN_OVERSAMPLING * targetHeight);
    return Math.max(1, Math.min(byWidth, byHeight));
  }

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
   * per target pixel ({@link #subsampling}), for the caller's Lanczos resample; a source that
   * resamples well itself may return that size, or close to it, directly.
   */
  default BufferedImage decodeScaled(int width, int height) {
    return decode(subsampling(width(), height(), width, height));
  }

  /** The size {@link #decodeScaled} returns for a box of {@code width} x {@code height}. */
  default Dimension decodedSize(int width, int height) {
    int subsampling = subsampling(width(), height(), width, height);
    return new Dimension(Math.ceilDiv(width(), subsampling), Math.ceilDiv(height(), subsampling));
  }

  /**
   * Decodes only {@code region} (in the orientation {@link #decode} returns), keeping about every
   * {@code subsampling}-th pixel in both directions: the rest of the image is never held in memory.
   *
   * @throws dev.derive.worker.runtime.PermanentStepFailure {@code corrupt-input} or {@code
   *     unsupported-input}
   */
  BufferedImage decodeRegion(Rectangle region, int subsampling);

  /**
   * What decoding into a {@code width} x {@code height} result holds at its peak, from the header:
   * the decoder's buffers and the decoded image as it reaches the caller.
   */
  MemoryEstimate decodeCost(int width, int height);

  /** What {@link #decodeRegion} holds at its peak. */
  default MemoryEstimate regionCost(Rectangle region, int subsampling) {
    return decodeCost(
        Math.ceilDiv(region.width, subsampling), Math.ceilDiv(region.height, subsampling));
  }

  /** The image for an error sentence, e.g. {@code the 10000x10000 PNG (8 bytes per pixel)}. */
  String describe();

  @Override
  void close() throws IOException;
}
