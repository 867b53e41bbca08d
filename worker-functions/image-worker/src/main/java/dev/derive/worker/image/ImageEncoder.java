package dev.derive.worker.image;

import dev.derive.protocol.MediaTypes;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsException;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.libvips.VipsUnavailableException;
import java.awt.image.BufferedImage;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Writes an image as JPEG (at a quality), PNG, BMP or TIFF with ImageIO, or WebP, AVIF and GIF with
 * libvips' savers ({@link Vips#saveWebp}, {@link Vips#saveAvif}, {@link Vips#saveGif}: cgif with a
 * libimagequant palette, far better than the JDK's GIF writer), with no metadata carried over.
 * Formats without alpha get the image flattened onto white; GIF keeps one transparent colour.
 */
final class ImageEncoder {
  private ImageEncoder() {}

  /** WebP's effort when the step gives none: libvips' and sharp's default (libwebp method 4). */
  static final int WEBP_DEFAULT_EFFORT = 4;

  /** AVIF's effort when the step gives none and the output is larger than a thumbnail. */
  static final int AVIF_DEFAULT_EFFORT = 4;

  /**
   * AVIF's effort when the step gives none and the output has at most {@link
   * #AVIF_THUMBNAIL_PIXELS}: measured on a 12 MP photo made 256 x 192 at quality 85
   * (docs/libvips.md, "Savers"), effort 3 took about a quarter of effort 4's time (90-160 against
   * 400 ms) for 5.5% more bytes (3016 against 2858); at 512 px the bytes grow by 24%, at 1024 px by
   * 85%, so larger outputs keep 4.
   */
  static final int AVIF_THUMBNAIL_EFFORT = 3;

  /** Largest output, in pixels, that AVIF encodes at {@link #AVIF_THUMBNAIL_EFFORT}: 256 x 256. */
  static final long AVIF_THUMBNAIL_PIXELS = 256 * 256;

  /** GIF's effort (libvips 1..10) when the step gives none: libvips' default. */
  static final int GIF_DEFAULT_EFFORT = 7;

  /**
   * GIF's effort for an animation when the step gives none: libimagequant's slower palette searches
   * cost on every frame. Measured (docs/animation.md) on the bench's 30-frame 640 x 480 GIF made
   * inside 256 x 256 by the layer's libvips (libimagequant 2.4): effort 4 saved in 0.5-0.7 s
   * against effort 7's 2.0-2.7 s, with a mean colour error per frame against the unquantised frames
   * of 0.36 against 0.32 (of 255; Debian's {@code vips thumbnail} at its effort 7: 0.35); efforts 1
   * to 3 are no faster but worse (0.53).
   */
  static final int ANIMATED_GIF_DEFAULT_EFFORT = 4;

  /**
   * The libvips effort to encode an animation of frames of {@code framePixels} pixels as {@code
   * mediaType} with: as {@link #effort}, but a GIF whose step names no effort gets {@link
   * #ANIMATED_GIF_DEFAULT_EFFORT}.
   */
  static int animationEffort(String mediaType, int requested, long framePixels) {
    return MediaTypes.IMAGE_GIF.equals(mediaType) && requested == ImageRecipe.FORMAT_EFFORT
        ? ANIMATED_GIF_DEFAULT_EFFORT
        : effort(mediaType, requested, framePixels);
  }

  /**
   * The libvips effort to encode {@code pixels} pixels as {@code mediaType} with: the step's {@code
   * requested} effort (0..9; WebP's encoder stops at 6, GIF's scale is 1..10 so 0..9 become 1..10),
   * or when it gave none ({@link ImageRecipe#FORMAT_EFFORT}) the format's default.
   */
  static int effort(String mediaType, int requested, long pixels) {
    boolean given = requested != ImageRecipe.FORMAT_EFFORT;
    if (MediaTypes.IMAGE_WEBP.equals(mediaType)) {
      return given ? Math.min(requested, Vips.WEBP_MAX_EFFORT) : WEBP_DEFAULT_EFFORT;
    }
    if (MediaTypes.IMAGE_GIF.equals(mediaType)) {
      return given ? requested + Vips.GIF_MIN_EFFORT : GIF_DEFAULT_EFFORT;
    }
    if (given) {
      return requested;
    }
    return pixels <= AVIF_THUMBNAIL_PIXELS ? AVIF_THUMBNAIL_EFFORT : AVIF_DEFAULT_EFFORT;
  }

  /** Whether {@code mediaType} keeps an alpha channel (PNG, TIFF, WebP, AVIF and GIF do). */
  static boolean keepsAlpha(String mediaType) {
    return MediaTypes.IMAGE_PNG.equals(mediaType)
        || MediaTypes.IMAGE_TIFF.equals(mediaType)
        || needsLibvips(mediaType);
  }

  /**
   * Whether {@code mediaType} is written by libvips: WebP and AVIF (the JDK has no writer) and GIF
   * (the JDK's writer has no palette search or dithering worth its name; one encoder per format
   * keeps a cached derivative the same whichever process made it).
   */
  static boolean needsLibvips(String mediaType) {
    return MediaTypes.IMAGE_WEBP.equals(mediaType)
        || MediaTypes.IMAGE_AVIF.equals(mediaType)
        || MediaTypes.IMAGE_GIF.equals(mediaType);
  }

  /**
   * Encodes {@code image} to {@code target} with every option of {@code recipe}: media type,
   * quality, progressive (JPEG), lossless and effort (WebP, AVIF, GIF).
   *
   * @throws IOException if writing fails
   * @throws VipsUnavailableException (retryable) for WebP, AVIF or GIF when libvips cannot be
   *     loaded
   * @throws VipsException if libvips fails to encode
   */
  static void write(BufferedImage image, ImageRecipe recipe, Path target) throws IOException {
    String mediaType = recipe.mediaType();
    if (!needsLibvips(mediaType)) {
      write(image, mediaType, recipe.quality(), recipe.progressive(), target);
      return;
    }
    Vips vips = Vips.shared();
    try (VipsImage pixels = VipsPixels.toVips(image)) {
      int effort = effort(mediaType, recipe.effort(), (long) image.getWidth() * image.getHeight());
      if (MediaTypes.IMAGE_WEBP.equals(mediaType)) {
        vips.saveWebp(pixels, target, recipe.quality(), recipe.lossless(), effort);
      } else if (MediaTypes.IMAGE_GIF.equals(mediaType)) {
        vips.saveGif(pixels, target, effort);
      } else {
        vips.saveAvif(pixels, target, recipe.quality(), effort);
      }
    }
  }

  /**
   * Encodes {@code image} to {@code target} (truncated first).
   *
   * @param mediaType {@code image/jpeg}, {@code image/png}, {@code image/bmp} or {@code image/tiff}
   *     (ImageIO's {@code image/gif} writer too, which the capability no longer uses)
   * @param quality JPEG quality 1..100, mapped to ImageIO's compression quality 0.01..1.0
   * @throws IOException if writing fails
   * @throws IllegalArgumentException if no ImageIO writer exists for {@code mediaType}
   */
  static void write(BufferedImage image, String mediaType, int quality, Path target)
      throws IOException {
    write(image, mediaType, quality, false, target);
  }

  /**
   * Encodes {@code image} as {@link #write(BufferedImage, String, int, Path)} does; a JPEG is
   * written progressive (SOF2, the JDK writer's default scan script) when {@code progressive}.
   */
  static void write(
      BufferedImage image, String mediaType, int quality, boolean progressive, Path target)
      throws IOException {
    boolean jpeg = MediaTypes.IMAGE_JPEG.equals(mediaType);
    BufferedImage pixels = keepsAlpha(mediaType) ? image : Pixels.normalize(image, false);
    Iterator<ImageWriter> writers = ImageIO.getImageWritersByMIMEType(mediaType);
    if (!writers.hasNext()) {
      throw new IllegalArgumentException("no ImageIO writer for " + mediaType);
    }
    ImageWriter writer = writers.next();
    try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(target));
        ImageOutputStream out = new MemoryCacheImageOutputStream(file)) {
      writer.setOutput(out);
      ImageWriteParam param = writer.getDefaultWriteParam();
      if (jpeg) {
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(quality / 100f);
        if (progressive) {
          param.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
        }
      }
      writer.write(null, new IIOImage(pixels, null, null), param);
      out.flush();
    } finally {
      writer.dispose();
    }
  }
}
