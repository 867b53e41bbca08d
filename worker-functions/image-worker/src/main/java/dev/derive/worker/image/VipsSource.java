package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsException;
import dev.derive.worker.libvips.VipsImage;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Dimension;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * An input decoded by libvips ({@link Vips}): HEIF and AVIF (libheif with the AV1 decoder;
 * HEVC-coded HEIC is refused, the bundled libheif has no HEVC decoder), 8-bit JPEG (mozjpeg, also
 * arithmetic-coded; an Ultra HDR / gain-map JPEG gives its SDR primary image), CMYK TIFF and WebP.
 * Pixels come out upright (EXIF orientation, HEIF {@code irot}/{@code imir} applied), shrunk on
 * load and converted to 8-bit sRGB with the embedded ICC profile; PQ-coded HDR is tone-mapped
 * ({@link HdrToneMap}). The first image of an animated file is what a viewer shows first: an AVIF
 * sequence's primary item (its first frame).
 *
 * <p>If libvips cannot be loaded the open fails with {@link
 * dev.derive.worker.libvips.VipsUnavailableException}, which the worker runtime retries (a
 * deployment fault is never cached as the input's failure).
 *
 * <p>About 540 lines because it is the one {@link ImageSource} over libvips: the two ways in (HEIF
 * with its structure sniffed, or a file libvips recognises) share the pixel limit, the decode
 * failures' wording, shrink-on-load, the region and whole-image decodes the stages start from, and
 * the hand-over of libvips' pixels to Java (8-bit sRGB, or 16-bit for the HDR tone map, the {@code
 * info} derivative), each short; the tone map itself lives in {@link HdrToneMap}, and the EXIF
 * orientation is libvips' own (its loader's {@code orientation} field).
 */
// Over 300 lines because HEIF, files, failures and the stages' three decodes share one source.
final class VipsSource implements ImageSource {
  /** HEIF brands of HEVC-coded images (ISO/IEC 23008-12 Annex B). */
  private static final Set<String> HEVC_BRANDS =
      Set.of("heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs");

  /** What a user reads when the source is HEVC-coded HEIF and this deployment turned HEIC off. */
  static final String HEVC_UNSUPPORTED =
      "HEIC images (HEIF with HEVC-coded pictures, the iPhone camera's default) are turned off in"
          + " this deployment, which reads AVIF (AV1-coded HEIF). Convert the photo to JPEG or AVIF"
          + " first (on an iPhone: Settings > Camera > Formats > Most Compatible).";

  /** Whether the file's brands say HEVC-coded HEIF (HEIC) and not AVIF. */
  static boolean hevcBrands(Sniffer.Heif structure) {
    boolean avif = structure.brands().contains("avif") || structure.brands().contains("avis");
    return !avif && structure.brands().stream().anyMatch(HEVC_BRANDS::contains);
  }

  private final Vips vips;
  private final Path file;
  private final String name;
  private final VipsImage heif;
  private final Sniffer.Nclx nclx;
  private final String loadOptions;
  private final Orientation stored;
  private final int bytesPerPixel;
  private final int width;
  private final int height;

  /**
   * Whether the thumbnail needs lcms to reach sRGB (an embedded ICC profile, or CMYK through
   * libvips' built-in profile). Without one, asking {@code vips_thumbnail} for an sRGB {@code
   * export_profile} anyway built an sRGB-to-sRGB transform on every call, the larger part of the
   * gap to sharp on a 12 MP JPEG (sharp transforms only images with a profile).
   */
  private final boolean iccTransform;

  private VipsSource(
      Vips vips,
      Path file,
      String name,
      VipsImage heif,
      Sniffer.Nclx nclx,
      String loadOptions,
      Orientation stored,
      int bytesPerPixel,
      int width,
      int height,
      boolean iccTransform) {
    this.vips = vips;
    this.file = file;
    this.name = name;
    this.heif = heif;
    this.nclx = nclx;
    this.loadOptions = loadOptions;
    this.stored = stored;
    this.bytesPerPixel = bytesPerPixel;
    this.width = width;
    this.height = height;
    this.iccTransform = iccTransform;
  }

  /**
   * Opens a HEIF or AVIF file (header only): the primary image, or top-level image {@code page}
   * (1-based).
   *
   * @throws PermanentStepFailure {@code unsupported-input} for HEVC or another codec than AV1,
   *     {@code corrupt-input} if libheif cannot read it, {@code input-too-large} over {@code
   *     maxPixels}, {@code invalid-step} past the last image
   * @throws dev.derive.worker.libvips.VipsUnavailableException if libvips cannot be loaded
   */
  static VipsSource heif(Path file, Sniffer.Heif structure, long maxPixels, int page) {
    boolean avif = structure.brands().contains("avif") || structure.brands().contains("avis");
    boolean hevc = !avif && structure.brands().stream().anyMatch(HEVC_BRANDS::contains);
    String name = avif ? "AVIF" : "HEIF";
    Vips vips = Vips.shared();
    VipsImage image;
    try {
      image = vips.openHeif(file, -1);
    } catch (VipsException e) {
      if (hevc) {
        throw new PermanentStepFailure(StepErrorTypes.UNSUPPORTED_INPUT, HEVC_UNSUPPORTED);
      }
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT,
          "the " + name + " file cannot be read: it is damaged or cut short",
          e);
    }
    try {
      String compression = image.string("heif-compression").orElse("unknown");
      if (compression.equals("hevc")) {
        throw new PermanentStepFailure(StepErrorTypes.UNSUPPORTED_INPUT, HEVC_UNSUPPORTED);
      }
      if (!compression.equals("av1")) {
        throw new PermanentStepFailure(
            StepErrorTypes.UNSUPPORTED_INPUT,
            "HEIF images coded with "
                + compression.toUpperCase(Locale.ROOT)
                + " are not supported: Derive's image decoder reads AV1-coded HEIF (AVIF) only.");
      }
      if (page > 1) {
        int pages = image.pages();
        if (page > pages) {
          throw new PermanentStepFailure(
              StepErrorTypes.INVALID_STEP,
              "page " + page + " is out of range: the " + name + " has " + pages + " image(s)");
        }
        VipsImage chosen = vips.openHeif(file, page - 1);
        image.close();
        image = chosen;
      }
      PixelLimit.checkInput(image.width(), image.height(), maxPixels);
      return new VipsSource(
          vips,
          file,
          name,
          image,
          structure.nclx(),
          "",
          Orientation.TOP_LEFT,
          image.bytesPerPixel(),
          image.width(),
          image.height(),
          true);
    } catch (RuntimeException e) {
      image.close();
      if (e instanceof VipsException) {
        throw new PermanentStepFailure(
            StepErrorTypes.CORRUPT_INPUT,
            "the " + name + " file cannot be read: it is damaged or cut short",
            e);
      }
      throw e;
    }
  }

  /**
   * Opens a file libvips recognises by itself (header only), e.g. an arithmetic-coded JPEG or a
   * WebP. Its size is reported upright: turned by the EXIF orientation libvips' loader found (in a
   * JPEG's APP1, a TIFF's IFD0, a WebP's EXIF chunk), the one its thumbnail turns the pixels by, so
   * the box asked for and the pixels that come back always agree.
   *
   * @throws PermanentStepFailure {@code corrupt-input} if libvips cannot read the header, {@code
   *     input-too-large} over {@code maxPixels}
   */
  static VipsSource file(Path file, String name, long maxPixels, int page) {
    Vips vips = Vips.shared();
    int storedWidth;
    int storedHeight;
    int bytesPerPixel;
    Orientation orientation;
    boolean iccTransform;
    try (VipsImage header = vips.open(file)) {
      storedWidth = header.width();
      storedHeight = header.height();
      bytesPerPixel = header.bytesPerPixel();
      orientation = Orientation.ofTag(header.orientation());
      iccTransform =
          header.has(VipsImage.ICC_PROFILE) || header.interpretation() == Vips.INTERPRETATION_CMYK;
    } catch (VipsException e) {
      throw decodeFailure(name, e);
    }
    PixelLimit.checkInput(storedWidth, storedHeight, maxPixels);
    boolean swap = orientation.swapsAxes();
    return new VipsSource(
        vips,
        file,
        name,
        null,
        null,
        page > 1 ? "page=" + (page - 1) : "",
        orientation,
        bytesPerPixel,
        swap ? storedHeight : storedWidth,
        swap ? storedWidth : storedHeight,
        iccTransform);
  }

  /** A libvips failure while this image's pixels are decoded, as {@link #decodeFailure}. */
  PermanentStepFailure decodeFailure(VipsException e) {
    return decodeFailure(name, e);
  }

  /**
   * A libvips failure as the step's error: truncated data and damage are {@code corrupt-input}, a
   * variant the decoder lacks ("Unsupported ...") is {@code unsupported-input}. libvips' own text
   * (which names its loaders and the step's temp file) stays with the cause, for the logs.
   */
  static PermanentStepFailure decodeFailure(String name, VipsException e) {
    String message = e.getMessage();
    String lower = message.toLowerCase(Locale.ROOT);
    if (lower.contains("premature end") || lower.contains("truncated")) {
      return new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT,
          "the " + name + " file is truncated: its data ends before the image does",
          e);
    }
    if (lower.contains("unsupported")) {
      return new PermanentStepFailure(
          StepErrorTypes.UNSUPPORTED_INPUT,
          "the " + name + " uses a variant the image decoder does not support",
          e);
    }
    return new PermanentStepFailure(
        StepErrorTypes.CORRUPT_INPUT,
        "the " + name + " image is damaged: its pixel data cannot be decoded",
        e);
  }

  @Override
  public int width() {
    return width;
  }

  @Override
  public int height() {
    return height;
  }

  /** Always upright: libvips applies EXIF orientation and HEIF transformations itself. */
  @Override
  public Orientation orientation() {
    return Orientation.TOP_LEFT;
  }

  @Override
  public BufferedImage decode(int subsampling) {
    int boxWidth = Math.max(1, width / subsampling);
    int boxHeight = Math.max(1, height / subsampling);
    if (pqHdr()) {
      try {
        return toneMapped(heif, subsampling);
      } catch (VipsException e) {
        throw decodeFailure(e);
      }
    }
    return thumbnail(boxWidth, boxHeight);
  }

  /**
   * libvips' thumbnail straight into the box (shrink-on-load, then Lanczos 3, never enlarging): the
   * caller's resample only corrects the rounding of a side or a stretch. PQ HDR keeps the
   * three-times oversampling before its tone mapping.
   */
  @Override
  public BufferedImage decodeScaled(int boxWidth, int boxHeight) {
    if (pqHdr()) {
      return decode(ImageSource.subsampling(width, height, boxWidth, boxHeight));
    }
    // Cover the box with the image's own aspect ratio, so a stretch (fit fill) only shrinks.
    double scale = Math.max((double) boxWidth / width, (double) boxHeight / height);
    return thumbnail(
        Math.max(1, (int) Math.ceil(width * scale)), Math.max(1, (int) Math.ceil(height * scale)));
  }

  /** libvips' thumbnail of the image (its HEIF image, else the file) into the box, decoded. */
  private BufferedImage thumbnail(int boxWidth, int boxHeight) {
    try (VipsImage thumbnail = shrunk(boxWidth, boxHeight)) {
      return VipsPixels.toJava(thumbnail);
    } catch (VipsException e) {
      throw decodeFailure(e);
    }
  }

  /**
   * libvips' thumbnail into the box (shrink-on-load, upright, never enlarging), not decoded. A JPEG
   * is loaded DCT-shrunk as sharp and imgproxy load it ({@link #jpegShrink}), then thumbnailed:
   * {@code vips_thumbnail} from the file keeps a factor of two for its resample (shrink 4 where
   * this takes 8), decoding four times the pixels; on a 12 MP photo into 256 px that was 30.5
   * against 25 ms, the whole gap to a warm sharp (bench {@code thumbnail_12mp_vs_sharp}).
   */
  private VipsImage shrunk(int boxWidth, int boxHeight) {
    if (heif == null && loadOptions.isEmpty() && name.endsWith("JPEG")) {
      double shrink = Math.min((double) width / boxWidth, (double) height / boxHeight);
      try (VipsImage loaded =
          vips.operation("jpegload")
              .set("filename", file.toString())
              .set("shrink", jpegShrink(shrink))
              .set("access", "sequential")
              .set("fail_on", "error")
              .image()) {
        return iccTransform
            ? vips.thumbnail(loaded, boxWidth, boxHeight)
            : vips.operation("thumbnail_image")
                .set("in", loaded)
                .set("width", boxWidth)
                .set("height", boxHeight)
                .set("size", "down")
                .image();
      }
    }
    return heif != null
        ? vips.thumbnail(heif, boxWidth, boxHeight)
        : iccTransform
            ? vips.thumbnail(file, boxWidth, boxHeight, loadOptions)
            : vips.operation("thumbnail")
                .set("filename", loadOptions.isEmpty() ? file + "" : file + "[" + loadOptions + "]")
                .set("width", boxWidth)
                .set("height", boxHeight)
                .set("size", "down")
                .set("fail_on", "error")
                .image();
  }

  /**
   * The JPEG shrink-on-load for a common {@code shrink} (source over box), sharp's rule ({@code
   * fastShrinkOnLoad}, src/pipeline.cc): the largest of 8, 4 and 2 not above it, halved when the
   * shrink is exactly that factor (libjpeg's rounding); 1 below 2.
   */
  static int jpegShrink(double shrink) {
    int factor = shrink >= 8 ? 8 : shrink >= 4 ? 4 : shrink >= 2 ? 2 : 1;
    return factor > 1 && (int) shrink == factor ? factor / 2 : factor;
  }

  /**
   * Whether the stages ({@link VipsPipeline}) can take this image as libvips decodes it: every
   * input but PQ HDR, which is tone-mapped in Java.
   */
  boolean staysInLibvips() {
    return !pqHdr();
  }

  /**
   * The decode stage's image: libvips' thumbnail covering {@code boxWidth} x {@code boxHeight} with
   * the image's own aspect ratio (the size {@link #decodedSize} gives), upright, never enlarged;
   * the caller closes it. Pixels are decoded only when a later stage or the saver asks for them.
   *
   * @throws PermanentStepFailure {@code corrupt-input} or {@code unsupported-input} when libvips
   *     cannot read the header again
   */
  VipsImage decodeCovering(int boxWidth, int boxHeight) {
    Dimension size = decodedSize(boxWidth, boxHeight);
    try {
      return shrunk(size.width, size.height);
    } catch (VipsException e) {
      throw decodeFailure(e);
    }
  }

  /**
   * What the stages hold off-heap for a {@code width} x {@code height} decode: as {@link
   * #decodeCost} without the copy into Java (nothing on the heap).
   */
  MemoryEstimate stagesCost(int resultWidth, int resultHeight) {
    return new MemoryEstimate(0, decodeCost(resultWidth, resultHeight).nativeBytes());
  }

  /** Whether this is a PQ (HDR10) HEIF image, tone mapped instead of thumbnailed. */
  private boolean pqHdr() {
    return heif != null && nclx != null && nclx.pq();
  }

  /** The cover size {@link #decodeScaled} asks libvips for; PQ HDR is subsampled instead. */
  @Override
  public Dimension decodedSize(int boxWidth, int boxHeight) {
    if (pqHdr()) {
      return ImageSource.super.decodedSize(boxWidth, boxHeight);
    }
    double scale = Math.min(1, Math.max((double) boxWidth / width, (double) boxHeight / height));
    return new Dimension(
        Math.max(1, (int) Math.ceil(width * scale)), Math.max(1, (int) Math.ceil(height * scale)));
  }

  /**
   * Decodes {@code region} of the upright image only, subsampled as {@link ImageSource} says: the
   * pixels of {@link #decodeRegionCovering} (PQ HDR: of the region cut out, tone-mapped) in Java.
   */
  @Override
  public BufferedImage decodeRegion(Rectangle region, int subsampling) {
    int boxWidth = Math.max(1, Math.ceilDiv(region.width, subsampling));
    int boxHeight = Math.max(1, Math.ceilDiv(region.height, subsampling));
    try {
      if (pqHdr()) {
        try (VipsImage area =
            vips.extractArea(heif, region.x, region.y, region.width, region.height)) {
          return toneMapped(area, subsampling);
        }
      }
      try (VipsImage small = decodeRegionCovering(region, boxWidth, boxHeight)) {
        return VipsPixels.toJava(small);
      }
    } catch (VipsException e) {
      throw decodeFailure(e);
    }
  }

  /**
   * The crop's decode stage: {@code region} of the upright image only, colour-managed to sRGB and
   * shrunk to cover {@code boxWidth} x {@code boxHeight} with the region's own aspect ratio (never
   * enlarged); the caller closes it. For a file the rows are streamed ({@link
   * Vips#openSequential}), the region of the stored image cut out ({@link Orientation#toStored})
   * and copied, then shrunk and turned upright by libvips' thumbnail (the cut keeps the EXIF
   * orientation); a HEIF image (libheif decodes it whole, already upright) has the region cut out
   * of it. Not for PQ HDR.
   *
   * @throws VipsException if libvips cannot decode the pixels
   */
  VipsImage decodeRegionCovering(Rectangle region, int boxWidth, int boxHeight) {
    double scale =
        Math.min(1, Math.max((double) boxWidth / region.width, (double) boxHeight / region.height));
    int coverWidth = Math.max(1, (int) Math.ceil(region.width * scale));
    int coverHeight = Math.max(1, (int) Math.ceil(region.height * scale));
    if (heif != null) {
      try (VipsImage area =
          vips.extractArea(heif, region.x, region.y, region.width, region.height)) {
        return vips.thumbnail(area, coverWidth, coverHeight, false);
      }
    }
    boolean swap = stored.swapsAxes();
    Rectangle cut = stored.toStored(region, swap ? height : width, swap ? width : height);
    Path source = loadOptions.isEmpty() ? file : Path.of(file + "[" + loadOptions + "]");
    try (VipsImage image = vips.openSequential(source);
        VipsImage area = vips.extractArea(image, cut.x, cut.y, cut.width, cut.height);
        VipsImage copy = vips.copyMemory(area)) {
      return vips.thumbnail(copy, coverWidth, coverHeight, true);
    }
  }

  /**
   * The trim's decode stage: the whole image, upright, in sRGB at full size, in memory (the border
   * search and the cut read it twice); the caller closes it.
   *
   * @throws PermanentStepFailure {@code corrupt-input} or {@code unsupported-input} when libvips
   *     cannot decode the pixels
   */
  VipsImage decodeWhole() {
    try (VipsImage upright = shrunk(width, height);
        VipsImage srgb =
            upright.interpretation() == Vips.INTERPRETATION_SRGB
                ? vips.operation("copy").set("in", upright).image()
                : vips.colourspace(upright, Vips.INTERPRETATION_SRGB);
        VipsImage samples = vips.cast(srgb, Vips.FORMAT_UCHAR)) {
      return vips.copyMemory(samples);
    } catch (VipsException e) {
      throw decodeFailure(e);
    }
  }

  /** What {@link #decodeWhole} holds: the decode and its 8-bit RGBA copy, off the heap. */
  MemoryEstimate wholeCost() {
    return new MemoryEstimate(0, decodeCost(width, height).nativeBytes() + 4L * width * height);
  }

  /**
   * What {@link #decodeRegionCovering} holds for {@code region} subsampled by {@code subsampling}:
   * as {@link #regionCost}, all off the heap (no copy into Java).
   */
  MemoryEstimate stagesRegionCost(Rectangle region, int subsampling) {
    MemoryEstimate cost = regionCost(region, subsampling);
    return new MemoryEstimate(0, cost.nativeBytes());
  }

  /**
   * A {@code width} x {@code height} result: libvips' output buffer and pipeline (twice the 8-bit
   * RGBA result, off-heap), its copy into Java and the {@code BufferedImage} (8 bytes a pixel); for
   * HEIF, libheif's decode of the whole image too (twice the header's bytes per pixel); for PQ HDR,
   * the samples as {@code int}s and {@code short}s instead.
   */
  @Override
  public MemoryEstimate decodeCost(int resultWidth, int resultHeight) {
    double pixels = (double) resultWidth * resultHeight;
    double sourcePixels = (double) width * height;
    double nativeBytes = pixels * 4 * 2;
    double heapBytes = pixels * (4 + 4);
    if (heif != null) {
      nativeBytes += sourcePixels * bytesPerPixel * 2;
      if (nclx != null && nclx.pq()) {
        heapBytes = pixels * (4 * 6 + 4);
      }
    }
    return new MemoryEstimate(Math.round(heapBytes), Math.round(nativeBytes));
  }

  /** As {@link #decodeCost}, plus the full-resolution copy of the region a file's cut makes. */
  @Override
  public MemoryEstimate regionCost(Rectangle region, int subsampling) {
    MemoryEstimate result = ImageSource.super.regionCost(region, subsampling);
    return heif != null
        ? result
        : result.plus(new MemoryEstimate(0, (long) region.width * region.height * bytesPerPixel));
  }

  @Override
  public String describe() {
    return String.format(
        Locale.ROOT, "the %dx%d %s (%d bytes per pixel)", width, height, name, bytesPerPixel);
  }

  /** PQ HDR: shrunk in libvips keeping 16 bits, then tone-mapped in Java. */
  private BufferedImage toneMapped(VipsImage source, int subsampling) {
    VipsImage scaled = subsampling > 1 ? vips.resize(source, 1.0 / subsampling) : null;
    try {
      VipsImage image = scaled != null ? scaled : source;
      int bands = image.bands();
      int[] samples;
      int max;
      if (image.format() == Vips.FORMAT_USHORT) {
        short[] shorts = image.shorts();
        samples = new int[shorts.length];
        for (int i = 0; i < shorts.length; i++) {
          samples[i] = shorts[i] & 0xFFFF;
        }
        max = 0xFFFF;
      } else {
        byte[] bytes = image.bytes();
        samples = new int[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
          samples[i] = bytes[i] & 0xFF;
        }
        max = 0xFF;
      }
      return HdrToneMap.toSdr(samples, image.width(), image.height(), bands, max, nclx.primaries());
    } finally {
      if (scaled != null) {
        scaled.close();
      }
    }
  }

  @Override
  public void close() {
    if (heif != null) {
      heif.close();
    }
  }
}
