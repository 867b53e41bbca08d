package dev.derive.worker.image;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.ffmpeg.FfmpegException;
import dev.derive.worker.ffmpeg.FfmpegTimeoutException;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Rectangle;
import java.awt.color.CMMException;
import java.awt.color.ColorSpace;
import java.awt.color.ICC_ColorSpace;
import java.awt.color.ICC_Profile;
import java.awt.image.BufferedImage;
import java.awt.image.ColorConvertOp;
import java.awt.image.WritableRaster;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A HEIC photo (HEIF with HEVC-coded pictures): its primary image, or top-level image {@code page},
 * decoded by FFmpeg ({@link HeicDecoder}) and made upright here as HEIF prescribes: the clean
 * aperture ({@code clap}) cut out, then the rotation ({@code irot}) and mirroring ({@code imir}) in
 * the order the item lists them. An EXIF orientation tag inside a HEIF is not applied on top
 * (HEIF's own transformations rule, as libheif, browsers and Apple's viewers do: an iPhone photo
 * carries both, describing the same turn). The alpha plane (an {@code auxl} image) is kept; PQ HDR
 * is tone-mapped ({@link HdrToneMap}), other 10-bit pictures cut to 8 bits; an embedded ICC profile
 * (Display P3 on iPhones) is converted to sRGB on the decoded, already shrunk pixels.
 */
// Over 300 lines because HEIF items, grid and tone map share its FFmpeg process handling.
final class HeicSource implements ImageSource {
  private final HeifStructure heif;
  private final HeifStructure.Item image;
  private final HeicDecoder.Layout layout;
  private final HeicDecoder.Layout alpha;
  private final HeifStructure.CleanAperture clap;
  private final List<Orientation> turns;
  private final Sniffer.Nclx nclx;
  private final byte[] icc;
  private final int width;
  private final int height;

  /** The image's thumbnail items ({@code thmb}) of its aspect ratio, smallest first. */
  private final List<HeicSource> thumbnails = new ArrayList<>();

  private HeicSource(
      HeifStructure heif,
      HeifStructure.Item image,
      HeicDecoder.Layout layout,
      HeicDecoder.Layout alpha,
      HeifStructure.CleanAperture clap,
      List<Orientation> turns,
      Sniffer.Nclx nclx,
      byte[] icc,
      int width,
      int height) {
    this.heif = heif;
    this.image = image;
    this.layout = layout;
    this.alpha = alpha;
    this.clap = clap;
    this.turns = turns;
    this.nclx = nclx;
    this.icc = icc;
    this.width = width;
    this.height = height;
  }

  /**
   * Reads {@code file}'s structure (no pixel decoded) and checks the image's size against {@code
   * maxPixels}; {@code null} if its picture is AV1-coded after all (for libvips).
   *
   * @throws PermanentStepFailure {@code corrupt-input} if the boxes are damaged or point past the
   *     end of the file, {@code unsupported-input} for a coding other than HEVC, {@code
   *     input-too-large} over {@code maxPixels}, {@code invalid-step} past the last image
   */
  static HeicSource open(Path file, Sniffer.Heif sniffed, long maxPixels, int page)
      throws IOException {
    try {
      HeifStructure heif = HeifStructure.read(file, sniffed.brands());
      List<HeifStructure.Item> images = heif.topLevelImages();
      if (page > images.size()) {
        throw new PermanentStepFailure(
            StepErrorTypes.INVALID_STEP,
            "page " + page + " is out of range: the HEIC has " + images.size() + " image(s)");
      }
      HeifStructure.Item image = page > 1 ? images.get(page - 1) : heif.primary();
      HeicDecoder.Layout layout = HeicDecoder.layout(heif, image);
      if ((long) layout.width() * layout.height() > maxPixels) {
        throw new PermanentStepFailure(
            StepErrorTypes.INPUT_TOO_LARGE,
            "image of "
                + layout.width()
                + "x"
                + layout.height()
                + " pixels is over the limit of "
                + maxPixels
                + " pixels");
      }
      HeicSource source = picture(heif, image, layout);
      for (HeifStructure.Item item : heif.thumbnailsOf(image)) {
        try {
          HeicSource thumbnail = picture(heif, item, HeicDecoder.layout(heif, item));
          double aspect = (double) source.width / source.height;
          double thumbnailAspect = (double) thumbnail.width / thumbnail.height;
          if (Math.abs(thumbnailAspect / aspect - 1) < 0.02) {
            source.thumbnails.add(thumbnail);
          }
        } catch (HeifStructure.Malformed | HeicDecoder.UnsupportedCoding e) {
          // a thumbnail Derive cannot read is not used; the image itself still is
        }
      }
      source.thumbnails.sort(java.util.Comparator.comparingLong(t -> (long) t.width * t.height));
      return source;
    } catch (HeifStructure.Malformed e) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT,
          "the HEIC file cannot be read: it is damaged or cut short (" + e.getMessage() + ")",
          e);
    } catch (HeicDecoder.UnsupportedCoding e) {
      if (e.getMessage().equals("av01")) {
        return null; // an AV1 picture in a file branded HEIC: libvips reads it
      }
      throw new PermanentStepFailure(
          StepErrorTypes.UNSUPPORTED_INPUT,
          "HEIF images coded as '"
              + e.getMessage()
              + "' inside an HEVC (HEIC) file are not supported: Derive reads HEVC and AV1 pictures");
    }
  }

  /** {@code image} with its alpha plane, clean aperture and transformations, upright size. */
  private static HeicSource picture(
      HeifStructure heif, HeifStructure.Item image, HeicDecoder.Layout layout)
      throws HeifStructure.Malformed, HeicDecoder.UnsupportedCoding, IOException {
    HeifStructure.Item alphaItem = heif.alphaOf(image);
    HeicDecoder.Layout alpha = null;
    if (alphaItem != null) {
      HeicDecoder.Layout candidate = HeicDecoder.layout(heif, alphaItem);
      if (candidate.width() == layout.width() && candidate.height() == layout.height()) {
        alpha = candidate;
      }
    }
    HeifStructure.CleanAperture clap = null;
    List<Orientation> turns = new ArrayList<>();
    for (HeifStructure.Property property : image.properties()) {
      switch (property) {
        case HeifStructure.CleanAperture c -> clap = c;
        case HeifStructure.Rotation r ->
            turns.add(
                switch (r.quarters()) {
                  case 1 -> Orientation.LEFT_BOTTOM; // 90° anticlockwise
                  case 2 -> Orientation.BOTTOM_RIGHT;
                  case 3 -> Orientation.RIGHT_TOP; // 270° anticlockwise = 90° clockwise
                  default -> Orientation.TOP_LEFT;
                });
        case HeifStructure.Mirror m ->
            turns.add(m.axis() == 0 ? Orientation.TOP_RIGHT : Orientation.BOTTOM_LEFT);
        default -> {}
      }
    }
    Rectangle crop = crop(clap, layout.width(), layout.height(), 1);
    int w = crop.width;
    int h = crop.height;
    for (Orientation turn : turns) {
      if (turn.swapsAxes()) {
        int t = w;
        w = h;
        h = t;
      }
    }
    return new HeicSource(
        heif,
        image,
        layout,
        alpha,
        clap,
        List.copyOf(turns),
        colour(image, layout, heif),
        profile(image, layout),
        w,
        h);
  }

  /** The image's {@code nclx}, or its first tile's. */
  private static Sniffer.Nclx colour(
      HeifStructure.Item image, HeicDecoder.Layout layout, HeifStructure heif) {
    HeifStructure.ColourNclx nclx = image.property(HeifStructure.ColourNclx.class);
    if (nclx == null) {
      nclx = layout.tiles().getFirst().property(HeifStructure.ColourNclx.class);
    }
    return nclx == null ? null : nclx.nclx();
  }

  /** The image's ICC profile, or its first tile's, or {@code null}. */
  private static byte[] profile(HeifStructure.Item image, HeicDecoder.Layout layout) {
    HeifStructure.ColourProfile icc = image.property(HeifStructure.ColourProfile.class);
    if (icc == null) {
      icc = layout.tiles().getFirst().property(HeifStructure.ColourProfile.class);
    }
    return icc == null ? null : icc.icc();
  }

  /**
   * The clean aperture of a {@code width x height} canvas shrunk by {@code shrink} (ISO/IEC
   * 14496-12 §12.1.4).
   */
  private static Rectangle crop(
      HeifStructure.CleanAperture clap, int width, int height, int shrink) {
    if (clap == null
        || clap.widthD() == 0
        || clap.heightD() == 0
        || clap.hOffD() == 0
        || clap.vOffD() == 0) {
      return new Rectangle(0, 0, Math.ceilDiv(width, shrink), Math.ceilDiv(height, shrink));
    }
    double cleanWidth = (double) clap.widthN() / clap.widthD();
    double cleanHeight = (double) clap.heightN() / clap.heightD();
    double left = clap.hOffN() / (double) clap.hOffD() + (width - 1) / 2.0 - (cleanWidth - 1) / 2.0;
    double top =
        clap.vOffN() / (double) clap.vOffD() + (height - 1) / 2.0 - (cleanHeight - 1) / 2.0;
    int x = (int) Math.max(0, Math.round(left / shrink));
    int y = (int) Math.max(0, Math.round(top / shrink));
    int w =
        (int)
            Math.max(1, Math.min(Math.round(cleanWidth / shrink), Math.ceilDiv(width, shrink) - x));
    int h =
        (int)
            Math.max(
                1, Math.min(Math.round(cleanHeight / shrink), Math.ceilDiv(height, shrink) - y));
    return new Rectangle(x, y, w, h);
  }

  @Override
  public int width() {
    return width;
  }

  @Override
  public int height() {
    return height;
  }

  /** Always upright: the HEIF transformations are applied here. */
  @Override
  public Orientation orientation() {
    return Orientation.TOP_LEFT;
  }

  /** Decodes the upright image, shrunk inside FFmpeg by up to {@code subsampling} (2, 4 or 8). */
  @Override
  public BufferedImage decode(int subsampling) {
    return toSrgb(decodeAsCoded(subsampling));
  }

  /**
   * The smallest thumbnail item covering the box, decoded whole, as libvips' thumbnail does with a
   * HEIF's thumbnail (an iPhone photo carries a 320x240 one: a 256 px thumbnail then decodes 1
   * tile's worth instead of 48); without one, {@link #decode} subsampled for the caller's resample.
   */
  @Override
  public BufferedImage decodeScaled(int boxWidth, int boxHeight) {
    HeicSource thumbnail = thumbnailCovering(boxWidth, boxHeight);
    return thumbnail != null
        ? thumbnail.decode(1)
        : ImageSource.super.decodeScaled(boxWidth, boxHeight);
  }

  @Override
  public java.awt.Dimension decodedSize(int boxWidth, int boxHeight) {
    HeicSource thumbnail = thumbnailCovering(boxWidth, boxHeight);
    return thumbnail != null
        ? new java.awt.Dimension(thumbnail.width, thumbnail.height)
        : ImageSource.super.decodedSize(boxWidth, boxHeight);
  }

  private HeicSource thumbnailCovering(int boxWidth, int boxHeight) {
    for (HeicSource thumbnail : thumbnails) {
      if (thumbnail.width >= boxWidth && thumbnail.height >= boxHeight) {
        return thumbnail;
      }
    }
    return null;
  }

  /** As {@link #decode}, in the colour space the file codes it in (before the ICC profile). */
  BufferedImage decodeAsCoded(int subsampling) {
    int shrink = HeicDecoder.shrink(layout, subsampling);
    if (alpha != null && HeicDecoder.shrink(alpha, subsampling) != shrink) {
      shrink = 1;
    }
    try {
      int canvasWidth = Math.ceilDiv(layout.width(), shrink);
      int canvasHeight = Math.ceilDiv(layout.height(), shrink);
      byte[] alphaSamples =
          alpha == null
              ? null
              : HeicDecoder.decode(heif, alpha, shrink, HeicDecoder.Samples.GREY8, null);
      BufferedImage decoded;
      if (layout.config().bitDepth() > 8) {
        byte[] rgb16 = HeicDecoder.decode(heif, layout, shrink, HeicDecoder.Samples.RGB16, nclx);
        if (nclx != null && nclx.pq()) {
          int bands = alphaSamples != null ? 4 : 3;
          decoded =
              HdrToneMap.toSdr(
                  HeicDecoder.samples16(rgb16, alphaSamples, canvasWidth * canvasHeight),
                  canvasWidth,
                  canvasHeight,
                  bands,
                  0xFFFF,
                  nclx.primaries());
        } else {
          decoded =
              HeicDecoder.image(HeicDecoder.to8Bit(rgb16), alphaSamples, canvasWidth, canvasHeight);
        }
      } else {
        byte[] rgb = HeicDecoder.decode(heif, layout, shrink, HeicDecoder.Samples.RGB8, nclx);
        decoded = HeicDecoder.image(rgb, alphaSamples, canvasWidth, canvasHeight);
      }
      Rectangle cut = crop(clap, layout.width(), layout.height(), shrink);
      if (cut.width != canvasWidth || cut.height != canvasHeight) {
        decoded = decoded.getSubimage(cut.x, cut.y, cut.width, cut.height);
      }
      for (Orientation turn : turns) {
        decoded = turn.apply(decoded);
      }
      return decoded;
    } catch (FfmpegTimeoutException e) {
      throw e;
    } catch (FfmpegException | HeifStructure.Malformed e) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT,
          "the HEIC image is damaged: its pixel data cannot be decoded",
          e);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Converts from the embedded ICC profile (Display P3 on iPhones) to sRGB; as is without one. */
  private BufferedImage toSrgb(BufferedImage image) {
    if (icc == null || (nclx != null && nclx.pq())) {
      return image;
    }
    ICC_ColorSpace space;
    try {
      space = new ICC_ColorSpace(ICC_Profile.getInstance(icc));
    } catch (IllegalArgumentException e) {
      return image; // a profile the JDK cannot read: the pixels as sRGB, as browsers show them
    }
    if (space.getType() != ColorSpace.TYPE_RGB
        || com.twelvemonkeys.imageio.color.ColorSpaces.isCS_sRGB(space.getProfile())) {
      return image;
    }
    BufferedImage copy =
        new BufferedImage(
            image.getWidth(),
            image.getHeight(),
            image.getType() == BufferedImage.TYPE_INT_ARGB
                ? BufferedImage.TYPE_INT_ARGB
                : BufferedImage.TYPE_INT_RGB);
    copy.getGraphics().drawImage(image, 0, 0, null);
    WritableRaster raster = copy.getRaster();
    WritableRaster colour =
        raster.createWritableChild(
            0, 0, raster.getWidth(), raster.getHeight(), 0, 0, new int[] {0, 1, 2});
    try {
      new ColorConvertOp(space, ColorSpace.getInstance(ColorSpace.CS_sRGB), null)
          .filter(colour, colour);
    } catch (CMMException | IllegalArgumentException e) {
      return image;
    }
    return copy;
  }

  @Override
  public BufferedImage decodeRegion(Rectangle region, int subsampling) {
    BufferedImage whole = decode(subsampling);
    double sx = (double) whole.getWidth() / width;
    double sy = (double) whole.getHeight() / height;
    int x = (int) Math.floor(region.x * sx);
    int y = (int) Math.floor(region.y * sy);
    int w = Math.max(1, Math.min(whole.getWidth() - x, (int) Math.ceil(region.width * sx)));
    int h = Math.max(1, Math.min(whole.getHeight() - y, (int) Math.ceil(region.height * sy)));
    return whole.getSubimage(x, y, w, h);
  }

  /**
   * FFmpeg's output for the whole canvas at the chosen shrink (3 or 6 bytes a pixel, and the grey
   * alpha plane), the image built from it and its upright and sRGB copies (4 bytes a pixel each),
   * on the heap; FFmpeg's own frames in its process.
   */
  @Override
  public MemoryEstimate decodeCost(int resultWidth, int resultHeight) {
    int shrink =
        HeicDecoder.shrink(
            layout, ImageSource.subsampling(width, height, resultWidth, resultHeight));
    double pixels =
        (double) Math.ceilDiv(layout.width(), shrink) * Math.ceilDiv(layout.height(), shrink);
    int sampleBytes = layout.config().bitDepth() > 8 ? 6 : 3;
    double heap = pixels * (sampleBytes + (alpha != null ? 1 : 0) + 4 * 3);
    double tile = (double) layout.tileWidth() * layout.tileHeight() / shrink / shrink;
    double ffmpeg = pixels * sampleBytes + tile * 16 * Runtime.getRuntime().availableProcessors();
    return new MemoryEstimate(Math.round(heap), Math.round(ffmpeg));
  }

  @Override
  public String describe() {
    return String.format(
        Locale.ROOT,
        "the %dx%d HEIC (%d-bit HEVC%s)",
        width,
        height,
        layout.config().bitDepth(),
        layout.tiles().size() > 1 ? ", " + layout.tiles().size() + " tiles" : "");
  }

  @Override
  public void close() {}
}
