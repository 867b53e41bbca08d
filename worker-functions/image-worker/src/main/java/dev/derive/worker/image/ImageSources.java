package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Chooses an input's decoder from its format, sniffed once ({@link ImageFormat}), never from its
 * name or declared media type, and opens it: {@link VipsSource} (libvips) or {@link SourceImage}
 * (ImageIO).
 */
final class ImageSources {
  /**
   * The setting that turns HEIC input off ({@code off}): system property, else environment variable
   * {@value #HEIC_ENVIRONMENT} (template parameter {@code HeicInput}; docs/heic-and-video.md).
   */
  static final String HEIC_PROPERTY = "derive.image.heic";

  /** The environment variable of {@link #HEIC_PROPERTY}. */
  static final String HEIC_ENVIRONMENT = "DERIVE_HEIC_INPUT";

  private ImageSources() {}

  /** Whether HEVC-coded HEIF (HEIC) is read here, or refused as {@code unsupported-input}. */
  static boolean heicEnabled() {
    String setting = System.getProperty(HEIC_PROPERTY, System.getenv(HEIC_ENVIRONMENT));
    return setting == null || !setting.strip().equalsIgnoreCase("off");
  }

  /**
   * Opens {@code input} with the decoder its first bytes call for: FFmpeg ({@link HeicSource}) for
   * HEVC-coded HEIF (HEIC), libvips ({@link VipsSource}) for AVIF and other HEIF (which ImageIO
   * cannot read), 8-bit JPEG, Huffman or arithmetic (shrink-on-load in the DCT domain, about five
   * times faster; ImageIO refuses arithmetic coding) and CMYK TIFF (so untagged CMYK is converted
   * the same way in JPEG and TIFF, with libvips' CMYK profile, as sharp does) and WebP (libwebp;
   * ImageIO's reader gets lossy colours wrong); ImageIO ({@link SourceImage}) for the rest (PNG,
   * GIF, BMP, TIFF, lossless and 12-bit JPEG, WebP without libvips), after the structural checks
   * ImageIO skips (a PNG's signature and header CRC, a BMP's RLE).
   */
  static ImageSource open(Path input, long maxPixels, int page) throws IOException {
    ImageFormat format = ImageFormat.sniff(input);
    if (format instanceof ImageFormat.Heif(Sniffer.Heif heif)) {
      if (VipsSource.hevcBrands(heif)) {
        if (!heicEnabled()) {
          throw new PermanentStepFailure(
              StepErrorTypes.UNSUPPORTED_INPUT, VipsSource.HEVC_UNSUPPORTED);
        }
        HeicSource heic = HeicSource.open(input, heif, maxPixels, page);
        if (heic != null) {
          return heic;
        }
      }
      return VipsSource.heif(input, heif, maxPixels, page);
    }
    Sniffer.JpegFrame frame = format instanceof ImageFormat.Jpeg(var f) ? f : null;
    if (frame != null && frame.arithmetic()) {
      if (!frame.libvipsDecodes()) {
        // ImageIO refuses every arithmetic JPEG; libvips (mozjpeg) reads the 8-bit DCT ones only
        throw new PermanentStepFailure(
            StepErrorTypes.UNSUPPORTED_INPUT,
            "the JPEG is arithmetic-coded with "
                + (frame.precision() == 8 ? "lossless coding" : frame.precision() + "-bit samples")
                + ", which the image decoder does not support (8-bit arithmetic coding it reads)");
      }
      return VipsSource.file(input, "arithmetic-coded JPEG", maxPixels, page);
    }
    // Without libvips (logged once at init), JPEG and CMYK TIFF fall back to ImageIO.
    boolean vips = Vips.available();
    if (vips && frame != null && frame.libvipsDecodes()) {
      return VipsSource.file(input, "JPEG", maxPixels, page);
    }
    if (vips && format instanceof ImageFormat.Tiff(boolean cmyk, boolean big) && (cmyk || big)) {
      // ImageIO reads classic TIFF only; libtiff reads BigTIFF's 64-bit offsets (issue 30 item 5)
      return VipsSource.file(input, cmyk ? "CMYK TIFF" : "BigTIFF", maxPixels, page);
    }
    if (format instanceof ImageFormat.Svg) {
      Vips.shared(); // SVG needs librsvg: retryable when libvips cannot be loaded
      return SvgSource.open(input);
    }
    if (vips && format instanceof ImageFormat.Webp) {
      // TwelveMonkeys' VP8 decoder gets lossy WebP colours wrong (a red of 0xdd1514 read as
      // 0x790000); libwebp, inside libvips, decodes them right, lossless and animated too.
      return VipsSource.file(input, "WebP", maxPixels, page);
    }
    if (format instanceof ImageFormat.Png(boolean signatureDamaged, boolean headerDamaged)) {
      if (signatureDamaged) {
        throw new PermanentStepFailure(
            StepErrorTypes.CORRUPT_INPUT,
            "the PNG is damaged: its signature bytes were changed, as a transfer in text mode does"
                + " (send the file as binary)");
      }
      if (headerDamaged) {
        throw new PermanentStepFailure(
            StepErrorTypes.CORRUPT_INPUT,
            "the PNG is damaged: its header chunk (IHDR) fails its checksum");
      }
    }
    if (format instanceof ImageFormat.Bmp(long[] size, boolean rleBroken)) {
      if (size != null) {
        // the JDK's reader fails on a pixel bomb's header as if it were damaged: say what it is
        PixelLimit.checkInput(size[0], size[1], maxPixels);
      }
      if (rleBroken) {
        throw new PermanentStepFailure(
            StepErrorTypes.CORRUPT_INPUT,
            "the BMP is damaged: its run-length-encoded pixels run outside the image or end early");
      }
    }
    return SourceImage.open(input, maxPixels, page);
  }
}
