package dev.derive.worker.image;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.worker.libvips.Vips;
import dev.derive.worker.libvips.VipsException;
import dev.derive.worker.libvips.VipsImage;
import io.trbl.blurhash.BlurHash;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code info} derivative (issue 29): what an image is, as JSON, from its header and a small
 * decode: media type, upright width and height (the pixels of every derivative are upright too),
 * colour space, bits per sample and ICC profile description, alpha, frames (pages), from EXIF the
 * camera, the time taken (ISO 8601) and the orientation tag as stored (GPS never: a deployment that
 * allows it is not built yet), the dominant colour, a BlurHash and a ThumbHash (base64), computed
 * on a copy of at most {@value #SAMPLE} pixels a side.
 */
final class ImageInfo {
  /** The operation of the conversion to {@code application/json}. */
  static final String OPERATION = "info";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Longest side of the copy the colour summaries are computed on. */
  static final int SAMPLE = 64;

  private ImageInfo() {}

  /**
   * Writes the info of {@code input} (identified by the coordinator as {@code mediaType}) to {@code
   * output}.
   *
   * @throws dev.derive.worker.runtime.PermanentStepFailure as {@link ImageSources#open} for inputs
   *     it cannot read
   */
  static void write(Path input, String mediaType, long maxPixels, Path output) throws IOException {
    ObjectNode info = JSON.createObjectNode().put("mediaType", mediaType);
    try (ImageSource source = ImageSources.open(input, maxPixels, 1)) {
      boolean turned = source.orientation().swapsAxes();
      info.put("width", turned ? source.height() : source.width());
      info.put("height", turned ? source.width() : source.height());
      header(input, info);
      int box = SAMPLE;
      BufferedImage small =
          source
              .orientation()
              .apply(
                  Pixels.normalize(ColourManagement.toSrgb(source.decodeScaled(box, box)), true));
      BufferedImage sample = fitInside(small, SAMPLE);
      info.put("dominantColour", dominantColour(sample));
      info.put("blurHash", BlurHash.encode(sample, 4, 3));
      int[] argb =
          sample.getRGB(0, 0, sample.getWidth(), sample.getHeight(), null, 0, sample.getWidth());
      info.put(
          "thumbHash",
          Base64.getEncoder()
              .encodeToString(ThumbHash.encode(sample.getWidth(), sample.getHeight(), argb)));
    }
    JSON.writerWithDefaultPrettyPrinter().writeValue(output.toFile(), info);
  }

  /** What libvips' header says, when libvips reads the file (BMP and HEIC it does not). */
  private static void header(Path input, ObjectNode info) {
    if (!Vips.available()) {
      return;
    }
    try (VipsImage header = Vips.shared().open(input)) {
      info.put("colourSpace", colourSpace(header.interpretation()));
      info.put("bitsPerSample", header.bytesPerPixel() / header.bands() * 8);
      info.put("alpha", header.hasAlpha());
      info.put("frames", header.pages());
      header
          .blob(VipsImage.ICC_PROFILE)
          .flatMap(ImageInfo::iccDescription)
          .ifPresent(d -> info.put("iccProfile", d));
      ObjectNode exif = JSON.createObjectNode();
      exif("exif-ifd0-Make", header).ifPresent(v -> exif.put("make", v));
      exif("exif-ifd0-Model", header).ifPresent(v -> exif.put("model", v));
      exif("exif-ifd2-DateTimeOriginal", header)
          .flatMap(t -> takenAt(t, exif("exif-ifd2-OffsetTimeOriginal", header)))
          .or(
              () ->
                  exif("exif-ifd0-DateTime", header)
                      .flatMap(t -> takenAt(t, exif("exif-ifd2-OffsetTime", header))))
          .ifPresent(v -> exif.put("takenAt", v));
      header
          .blob(EXIF_DATA)
          .flatMap(ExifOrientation::tag)
          .ifPresent(tag -> exif.put("orientation", tag));
      if (!exif.isEmpty()) {
        info.set("exif", exif);
      }
    } catch (VipsException e) {
      // a format libvips cannot read (BMP, HEIC): the size and colours above still stand
    }
  }

  /** libvips' field holding the EXIF block as the file stores it. */
  private static final String EXIF_DATA = "exif-data";

  /** EXIF's date and time ({@code 2018:07:31 14:52:07}, EXIF 2.32 §4.6.5 DateTimeOriginal). */
  private static final java.util.regex.Pattern EXIF_TIME =
      java.util.regex.Pattern.compile("(\\d{4}):(\\d{2}):(\\d{2}) (\\d{2}:\\d{2}:\\d{2})");

  /** EXIF's offset from UTC ({@code +02:00}, EXIF 2.31 OffsetTimeOriginal). */
  private static final java.util.regex.Pattern EXIF_OFFSET =
      java.util.regex.Pattern.compile("[+-]\\d{2}:\\d{2}");

  /**
   * EXIF's {@code 2018:07:31 14:52:07} as ISO 8601, {@code 2018-07-31T14:52:07}, with the offset
   * when EXIF has one ({@code 2018-07-31T14:52:07+02:00}; without, the camera's local time); empty
   * for a time that is not one (cameras write blanks or zeros when their clock is unset).
   */
  static Optional<String> takenAt(String exifTime, Optional<String> offset) {
    java.util.regex.Matcher m = EXIF_TIME.matcher(exifTime.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    String local = m.group(1) + "-" + m.group(2) + "-" + m.group(3) + "T" + m.group(4);
    try {
      java.time.LocalDateTime.parse(local);
    } catch (java.time.format.DateTimeParseException e) {
      return Optional.empty();
    }
    return Optional.of(
        local + offset.map(String::strip).filter(o -> EXIF_OFFSET.matcher(o).matches()).orElse(""));
  }

  private static final Map<Integer, String> SPACES =
      Map.of(
          Vips.INTERPRETATION_B_W,
          "grey",
          26,
          "grey",
          Vips.INTERPRETATION_CMYK,
          "cmyk",
          Vips.INTERPRETATION_SRGB,
          "srgb",
          Vips.INTERPRETATION_RGB16,
          "srgb",
          17,
          "rgb",
          28,
          "scrgb",
          13,
          "lab");

  /** libvips' interpretation as a colour space name; {@code multiband} for anything else. */
  static String colourSpace(int interpretation) {
    return SPACES.getOrDefault(interpretation, "multiband");
  }

  /**
   * An EXIF text field as libvips gives it ({@code "Canon (Canon, ASCII, 6 components, 6 bytes)"}):
   * the value before libvips' description.
   */
  private static Optional<String> exif(String field, VipsImage header) {
    return header
        .string(field)
        .map(v -> v.contains(" (") ? v.substring(0, v.lastIndexOf(" (")) : v)
        .map(String::strip)
        .filter(v -> !v.isEmpty());
  }

  /**
   * The description of an ICC profile (its {@code desc} tag: ICC.1:2001 textDescriptionType in v2
   * profiles, multiLocalizedUnicodeType in v4), if it has one.
   */
  static Optional<String> iccDescription(byte[] profile) {
    ByteBuffer icc = ByteBuffer.wrap(profile);
    if (profile.length < 132) {
      return Optional.empty();
    }
    int tags = icc.getInt(128);
    for (int i = 0; i < tags && 132 + i * 12 + 12 <= profile.length; i++) {
      int entry = 132 + i * 12;
      if (icc.getInt(entry) != 0x64657363) { // 'desc'
        continue;
      }
      int offset = icc.getInt(entry + 4);
      int size = icc.getInt(entry + 8);
      if (offset < 0 || size < 12 || offset + size > profile.length) {
        return Optional.empty();
      }
      String type = new String(profile, offset, 4, StandardCharsets.US_ASCII);
      if (type.equals("desc")) {
        int count = icc.getInt(offset + 8);
        int length = Math.max(0, Math.min(count - 1, size - 12));
        return Optional.of(new String(profile, offset + 12, length, StandardCharsets.US_ASCII));
      }
      if (type.equals("mluc") && size >= 28) {
        int length = icc.getInt(offset + 20);
        int start = offset + icc.getInt(offset + 24);
        if (start + length <= profile.length) {
          return Optional.of(new String(profile, start, length, StandardCharsets.UTF_16BE));
        }
      }
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** {@code image} scaled down to fit a {@code side} square, or itself when it does. */
  private static BufferedImage fitInside(BufferedImage image, int side) {
    double scale = Math.min(1, (double) side / Math.max(image.getWidth(), image.getHeight()));
    return Pixels.resize(
        image,
        Math.max(1, (int) Math.round(image.getWidth() * scale)),
        Math.max(1, (int) Math.round(image.getHeight() * scale)));
  }

  /**
   * The most common colour, {@code #rrggbb}: the opaque pixels grouped by their top 4 bits a
   * channel, the largest group's mean (transparent pixels are not counted; a clear image is {@code
   * #000000}).
   */
  static String dominantColour(BufferedImage image) {
    Map<Integer, long[]> groups = new HashMap<>();
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int argb = image.getRGB(x, y);
        if ((argb >>> 24) < 128) {
          continue;
        }
        int key = (argb >> 4 & 0xF) | (argb >> 8 & 0xF0) | (argb >> 12 & 0xF00);
        long[] sum = groups.computeIfAbsent(key, k -> new long[4]);
        sum[0] += argb >> 16 & 0xFF;
        sum[1] += argb >> 8 & 0xFF;
        sum[2] += argb & 0xFF;
        sum[3]++;
      }
    }
    long[] best = groups.values().stream().max((a, b) -> Long.compare(a[3], b[3])).orElse(null);
    if (best == null) {
      return "#000000";
    }
    return "#"
        + HexFormat.of()
            .formatHex(
                new byte[] {
                  (byte) (best[0] / best[3]), (byte) (best[1] / best[3]), (byte) (best[2] / best[3])
                })
            .toLowerCase(Locale.ROOT);
  }
}
