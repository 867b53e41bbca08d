package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.awt.image.DataBuffer;
import java.awt.image.SampleModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageTypeSpecifier;
import javax.imageio.stream.ImageInputStream;

/**
 * An input image opened for decoding: its format found from its first bytes, its size read from its
 * header and checked against the pixel limit BEFORE any pixel is decoded (a decompression bomb of a
 * few bytes may declare billions of pixels), and its EXIF orientation ({@link ExifOrientation}).
 *
 * <p>A little over 300 lines: it is the one {@link ImageSource} over ImageIO, and most of it is
 * reading an ImageIO reader's header, page, raw type and warnings into the errors users see, which
 * only make sense beside the reader they come from.
 */
// Over 300 lines because page, region and subsampled ImageIO decodes share one reader set-up.
final class SourceImage implements ImageSource {
  private static final System.Logger LOG = System.getLogger(SourceImage.class.getName());

  /** ImageIO format names the image capability reads (besides what libvips decodes). */
  private static final Set<String> READABLE_FORMATS =
      Set.of("jpeg", "png", "gif", "bmp", "tiff", "webp");

  private final ImageInputStream stream;
  private final ImageReader reader;
  private final String format;
  private final int width;
  private final int height;
  private final Orientation orientation;
  private final double bytesPerPixel;

  /** 0-based index of the image decoded (the page or frame). */
  private int index;

  private SourceImage(
      ImageInputStream stream,
      ImageReader reader,
      String format,
      int width,
      int height,
      Orientation orientation,
      double bytesPerPixel) {
    this.stream = stream;
    this.reader = reader;
    this.format = format;
    this.width = width;
    this.height = height;
    this.orientation = orientation;
    this.bytesPerPixel = bytesPerPixel;
  }

  /**
   * Opens {@code file}, reading only its header and metadata.
   *
   * @param maxPixels largest width x height accepted
   * @throws PermanentStepFailure {@code unsupported-input} if no readable format matches, {@code
   *     corrupt-input} if the header cannot be read, {@code input-too-large} above {@code
   *     maxPixels}
   * @throws IOException if the file cannot be opened
   */
  static SourceImage open(Path file, long maxPixels) throws IOException {
    return open(file, maxPixels, 1);
  }

  /**
   * Opens page {@code page} (1-based) of {@code file}: a TIFF page or a GIF frame; other formats
   * have one page.
   *
   * @throws PermanentStepFailure as {@link #open(Path, long)}, and {@code invalid-step} when the
   *     file has fewer pages
   */
  static SourceImage open(Path file, long maxPixels, int page) throws IOException {
    ImageInputStream stream = ImageIO.createImageInputStream(file.toFile());
    if (stream == null) {
      throw new IOException("ImageIO cannot open " + file);
    }
    try {
      ImageReader reader = readerFor(stream);
      String format = formatOf(reader);
      int width;
      int height;
      try {
        reader.setInput(stream, page == 1);
        if (page > 1) {
          int pages = reader.getNumImages(true);
          if (page > pages) {
            reader.dispose();
            throw new PermanentStepFailure(
                StepErrorTypes.INVALID_STEP,
                "page " + page + " is out of range: the " + format + " has " + pages + " page(s)");
          }
        }
        width = reader.getWidth(page - 1);
        height = reader.getHeight(page - 1);
      } catch (PermanentStepFailure e) {
        throw e;
      } catch (IOException | RuntimeException e) {
        reader.dispose();
        // ImageIO's message ("javax.imageio.IIOException: No SOF segment") stays with the cause;
        // it reports variants it cannot read (e.g. an arithmetic JPEG) as "Unsupported ..."
        if (String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("unsupported")) {
          throw new PermanentStepFailure(
              StepErrorTypes.UNSUPPORTED_INPUT,
              "the " + userName(format) + " uses a variant the image decoder does not support",
              e);
        }
        throw new PermanentStepFailure(
            StepErrorTypes.CORRUPT_INPUT,
            "the " + userName(format) + " file is damaged or cut short: its header cannot be read",
            e);
      }
      if (width <= 0 || height <= 0) {
        reader.dispose();
        throw new PermanentStepFailure(
            StepErrorTypes.CORRUPT_INPUT, format + " header declares " + width + "x" + height);
      }
      if ((long) width * height > maxPixels) {
        reader.dispose();
        PixelLimit.checkInput(width, height, maxPixels);
      }
      SourceImage source =
          new SourceImage(
              stream,
              reader,
              format,
              width,
              height,
              ExifOrientation.read(file, format),
              bytesPerPixel(reader, page - 1));
      source.index = page - 1;
      return source;
    } catch (RuntimeException e) {
      stream.close();
      throw e;
    }
  }

  /** The ImageIO format name, e.g. {@code jpeg}. */
  String format() {
    return format;
  }

  /** Stored width in pixels (before orientation). */
  @Override
  public int width() {
    return width;
  }

  /** Stored height in pixels (before orientation). */
  @Override
  public int height() {
    return height;
  }

  /** The orientation read from EXIF (JPEG) or the TIFF tag; upright when absent. */
  @Override
  public Orientation orientation() {
    return orientation;
  }

  /**
   * Decodes the first image, keeping every {@code subsampling}-th pixel in both directions (1 =
   * all).
   *
   * @throws PermanentStepFailure {@code corrupt-input} if the pixels cannot be decoded, {@code
   *     unsupported-input} if the reader does not support this variant of the format
   */
  @Override
  public BufferedImage decode(int subsampling) {
    return read(null, subsampling);
  }

  /**
   * Decodes {@code region} of the stored image only ({@code ImageReadParam.setSourceRegion}): the
   * reader still reads the rows above it, but holds only the region, subsampled.
   */
  @Override
  public BufferedImage decodeRegion(Rectangle region, int subsampling) {
    return read(region, subsampling);
  }

  /** The decoded image as the reader holds it: width x height x the header's bytes per pixel. */
  @Override
  public MemoryEstimate decodeCost(int decodedWidth, int decodedHeight) {
    return MemoryEstimate.heap((double) decodedWidth * decodedHeight * bytesPerPixel);
  }

  @Override
  public String describe() {
    return String.format(
        Locale.ROOT,
        "the %dx%d %s (%s bytes per pixel)",
        width,
        height,
        format.toUpperCase(Locale.ROOT),
        bytesPerPixel == Math.rint(bytesPerPixel)
            ? Integer.toString((int) bytesPerPixel)
            : Double.toString(bytesPerPixel));
  }

  /**
   * Bytes per pixel of the image the reader decodes, from its header: the larger of its raw and its
   * first destination type (e.g. 8 for 16-bit RGBA, 3 for 8-bit RGB, 1 for a palette); 4 if the
   * reader names neither.
   */
  private static double bytesPerPixel(ImageReader reader, int index) {
    int bits = 0;
    try {
      ImageTypeSpecifier raw = reader.getRawImageType(index);
      if (raw != null) {
        bits = bitsPerPixel(raw);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "no raw image type", e);
    }
    try {
      Iterator<ImageTypeSpecifier> types = reader.getImageTypes(index);
      if (types != null && types.hasNext()) {
        bits = Math.max(bits, bitsPerPixel(types.next()));
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "no image types", e);
    }
    return bits > 0 ? bits / 8.0 : 4;
  }

  private static int bitsPerPixel(ImageTypeSpecifier type) {
    SampleModel model = type.getSampleModel();
    return model.getNumDataElements() * DataBuffer.getDataTypeSize(model.getDataType());
  }

  private BufferedImage read(Rectangle region, int subsampling) {
    ImageReadParam param = reader.getDefaultReadParam();
    if (region != null) {
      param.setSourceRegion(region);
    }
    if (subsampling > 1) {
      param.setSourceSubsampling(subsampling, subsampling, 0, 0);
    }
    List<String> warnings = new ArrayList<>();
    reader.addIIOReadWarningListener((source, warning) -> warnings.add(warning));
    BufferedImage image;
    try {
      image = reader.read(index, param);
    } catch (IOException | RuntimeException e) {
      // ImageIO reports variants it cannot decode (e.g. 12-bit JPEG) as "Unsupported ...".
      String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
      String type =
          message.contains("unsupported")
              ? StepErrorTypes.UNSUPPORTED_INPUT
              : StepErrorTypes.CORRUPT_INPUT;
      throw new PermanentStepFailure(
          type,
          type.equals(StepErrorTypes.UNSUPPORTED_INPUT)
              ? "the " + userName(format) + " uses a variant the image decoder does not support"
              : "the " + userName(format) + " image is damaged: its pixel data cannot be decoded",
          e);
    } finally {
      reader.removeAllIIOReadWarningListeners();
    }
    // TwelveMonkeys' JPEG reader fills the missing part of a truncated file with whatever the
    // decoder holds (noise for a progressive scan cut short) and only warns.
    for (String warning : warnings) {
      if (warning != null && warning.toLowerCase(Locale.ROOT).contains("truncated")) {
        throw new PermanentStepFailure(
            StepErrorTypes.CORRUPT_INPUT,
            "the " + format + " file is truncated: its data ends before the image does");
      }
    }
    return image;
  }

  @Override
  public void close() throws IOException {
    reader.dispose();
    stream.close();
  }

  private static ImageReader readerFor(ImageInputStream stream) {
    Iterator<ImageReader> readers = ImageIO.getImageReaders(stream);
    while (readers.hasNext()) {
      ImageReader reader = readers.next();
      if (READABLE_FORMATS.contains(formatOf(reader))) {
        return reader;
      }
      reader.dispose();
    }
    throw new PermanentStepFailure(
        StepErrorTypes.UNSUPPORTED_INPUT,
        "not an image format the image capability reads (JPEG, PNG, GIF, BMP, TIFF, WebP, AVIF)");
  }

  /** ImageIO's format name as users write it: {@code jpeg} is JPEG. */
  private static String userName(String format) {
    return format.toUpperCase(Locale.ROOT);
  }

  private static String formatOf(ImageReader reader) {
    try {
      return reader.getFormatName().toLowerCase(Locale.ROOT);
    } catch (IOException e) {
      return "unknown";
    }
  }
}
