package dev.derive.worker.image;

import com.twelvemonkeys.imageio.metadata.Directory;
import com.twelvemonkeys.imageio.metadata.Entry;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEG;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEGSegment;
import com.twelvemonkeys.imageio.metadata.jpeg.JPEGSegmentUtil;
import com.twelvemonkeys.imageio.metadata.tiff.TIFF;
import com.twelvemonkeys.imageio.metadata.tiff.TIFFReader;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/**
 * An input's EXIF orientation tag, read with TwelveMonkeys' metadata readers, for {@link
 * SourceImage} (ImageIO reports the orientation instead of applying it), so the size it reports is
 * the upright one and the pixels are turned upright after decoding. The tag is where each format
 * keeps its EXIF block: a JPEG's APP1 segment, a TIFF's IFD0, a PNG's {@code eXIf} chunk (PNG Third
 * Edition) and a WebP's {@code EXIF} chunk (RFC 9649 §2.7); libvips, and so {@link VipsSource},
 * reads the same four.
 */
final class ExifOrientation {
  private static final System.Logger LOG = System.getLogger(ExifOrientation.class.getName());

  private ExifOrientation() {}

  /**
   * Reads the orientation tag of {@code file}, an image of ImageIO's {@code format} name ({@code
   * jpeg}, {@code tiff}, {@code png}, {@code webp}; any other has none). Broken or missing metadata
   * means upright: it never fails the step.
   */
  static Orientation read(Path file, String format) {
    try (ImageInputStream in = ImageIO.createImageInputStream(file.toFile())) {
      if (format.equals("tiff")) {
        return orientationOf(new TIFFReader().read(in)); // the file is itself a TIFF structure
      }
      byte[] block =
          switch (format) {
            case "jpeg" -> jpegExif(in);
            case "png" -> chunk(in, PNG_SIGNATURE_BYTES, "eXIf", false);
            case "webp" -> chunk(in, RIFF_HEADER_BYTES, "EXIF", true);
            default -> EMPTY;
          };
      return block.length == 0
          ? Orientation.TOP_LEFT
          : orientationOf(new TIFFReader().read(tiffStream(block)));
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.DEBUG, "unreadable orientation, assuming upright", e);
      return Orientation.TOP_LEFT;
    }
  }

  /**
   * The Orientation tag (1 to 8) of an EXIF block as libvips attaches it ({@code exif-data}: an
   * {@code Exif\0\0} identifier, then TIFF), as stored; empty without one or when it is unreadable.
   */
  static java.util.Optional<Integer> tag(byte[] block) {
    try {
      Entry entry = new TIFFReader().read(tiffStream(block)).getEntryById(TIFF.TAG_ORIENTATION);
      return entry != null
              && entry.getValue() instanceof Number n
              && n.intValue() >= 1
              && n.intValue() <= 8
          ? java.util.Optional.of(n.intValue())
          : java.util.Optional.empty();
    } catch (IOException | RuntimeException e) {
      return java.util.Optional.empty();
    }
  }

  /** The Orientation tag of an EXIF block's IFD0; upright without one. */
  private static Orientation orientationOf(Directory ifd0) {
    Entry entry = ifd0.getEntryById(TIFF.TAG_ORIENTATION);
    return entry != null && entry.getValue() instanceof Number n
        ? Orientation.ofTag(n.intValue())
        : Orientation.TOP_LEFT;
  }

  /** No EXIF block. */
  private static final byte[] EMPTY = new byte[0];

  /**
   * PNG's signature (PNG Third Edition §5.2), before the first chunk; {@link Sniffer} checks it.
   */
  private static final int PNG_SIGNATURE_BYTES = 8;

  /** "RIFF", the file size and "WEBP" (RFC 9649 §2.4), before the first chunk. */
  private static final int RIFF_HEADER_BYTES = 12;

  /**
   * Chunks looked at before giving up. A PNG's eXIf may follow its pixel data (PNG Third Edition
   * §5.6), and a 100 MiB PNG written in 8 KiB IDAT chunks has ~13,000 of them; the cap only bounds
   * the time a hostile file of tiny chunks could take.
   */
  private static final int MAX_CHUNKS = 100_000;

  /** An EXIF block over this is not read (the Orientation tag sits in the first bytes). */
  private static final int MAX_EXIF_BYTES = 1 << 20;

  /** The TIFF block of a JPEG's Exif APP1 segment, after the identifier; empty when it has none. */
  private static byte[] jpegExif(ImageInputStream in) throws IOException {
    List<JPEGSegment> exif = JPEGSegmentUtil.readSegments(in, JPEG.APP1, "Exif");
    if (exif.isEmpty()) {
      return EMPTY;
    }
    try (InputStream data = exif.get(0).data()) {
      return data.readAllBytes();
    }
  }

  /**
   * The data of the first chunk of type {@code type}, or {@link #EMPTY}: PNG chunks are a 4-byte
   * big-endian length, the type, the data and a CRC (PNG §5.3); RIFF chunks the type, a 4-byte
   * little-endian length, the data and a pad byte to an even length (RFC 9649 §2.3). Stops at a
   * PNG's IEND or the end of the file.
   */
  private static byte[] chunk(ImageInputStream in, int start, String type, boolean riff)
      throws IOException {
    in.seek(start);
    in.setByteOrder(riff ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
    byte[] name = new byte[4];
    for (int i = 0; i < MAX_CHUNKS; i++) {
      long length;
      try {
        if (riff) {
          in.readFully(name);
          length = in.readUnsignedInt();
        } else {
          length = in.readUnsignedInt();
          in.readFully(name);
        }
      } catch (EOFException end) {
        return EMPTY;
      }
      String found = new String(name, StandardCharsets.US_ASCII);
      if (found.equals(type)) {
        if (length > MAX_EXIF_BYTES) {
          return EMPTY;
        }
        byte[] data = new byte[(int) length];
        in.readFully(data);
        return data;
      }
      if (found.equals("IEND")) {
        return EMPTY;
      }
      in.skipBytes(length + (riff ? length & 1 : 4));
    }
    return EMPTY;
  }

  /**
   * The TIFF structure of an EXIF block (it begins "II" or "MM"), after what is left of an {@code
   * Exif\0\0} identifier: a JPEG segment's data keeps its pad byte, and some writers put the whole
   * identifier in PNG and WebP chunks too, which libvips accepts.
   */
  private static ImageInputStream tiffStream(byte[] data) {
    int start = 0;
    if (data.length >= 4 && new String(data, 0, 4, StandardCharsets.US_ASCII).equals("Exif")) {
      start = 4;
    }
    while (start < data.length && data[start] == 0) {
      start++;
    }
    return new MemoryCacheImageInputStream(
        new ByteArrayInputStream(data, start, data.length - start));
  }
}
