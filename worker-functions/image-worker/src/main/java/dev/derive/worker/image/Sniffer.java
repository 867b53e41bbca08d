package dev.derive.worker.image;

import dev.derive.worker.ffmpeg.IsoBoxes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * Reads just enough of a file's structure to choose its decoder: whether it is an ISO base media
 * file (HEIF, AVIF: an {@code ftyp} box first) with its brands and colour description, and whether
 * a JPEG is arithmetic-coded (which the JDK's decoder refuses). Never fails: a structure it cannot
 * parse is reported as absent, and the decoder then reports the real error.
 *
 * <p>Over 300 lines on purpose: it is a set of small, independent byte-layout checks (ISO BMFF
 * boxes, JPEG markers, TIFF and WebP headers, PNG signature and CRC, BMP RLE) sharing one bounded
 * reader; each is a few lines of magic numbers and offsets, and keeping them together shows every
 * structure the worker looks at before it picks a decoder ({@link ImageSources}).
 */
// Over 300 lines because each check ImageIO skips reads its own format's bytes.
final class Sniffer {
  /** Largest {@code meta} box read (HEIF metadata is a few kilobytes; bigger ones are skipped). */
  private static final int MAX_META_BYTES = 4 << 20;

  /** Largest RLE pixel data checked (bigger files are left to the decoder). */
  private static final long MAX_RLE_BYTES = 64L << 20;

  private static final long PNG_SIGNATURE = 0x89504E470D0A1A0AL;

  private Sniffer() {}

  /**
   * An ISO base media file's {@code ftyp} brands and the first {@code nclx} colour box of its
   * {@code meta/iprp/ipco} (ISO/IEC 23008-12; ITU-T H.273 code points), or {@code null}.
   */
  record Heif(Set<String> brands, Nclx nclx) {}

  /**
   * H.273 colour description: {@code primaries} (1 BT.709/sRGB, 9 BT.2020, 12 Display P3), {@code
   * transfer} (13 sRGB, 16 PQ / SMPTE ST 2084, 18 HLG), {@code matrix}, full range.
   */
  record Nclx(int primaries, int transfer, int matrix, boolean fullRange) {
    /** The transfer of PQ (SMPTE ST 2084) HDR video and stills. */
    static final int TRANSFER_PQ = 16;

    /** Display P3 (SMPTE EG 432-1) primaries. */
    static final int PRIMARIES_P3 = 12;

    /** BT.2020 primaries. */
    static final int PRIMARIES_BT2020 = 9;

    /** Whether the pixels are PQ-coded HDR, which must be tone-mapped to show on SDR. */
    boolean pq() {
      return transfer == TRANSFER_PQ;
    }
  }

  /**
   * The file's HEIF structure, or {@code null} if it does not start with an {@code ftyp} box.
   *
   * @throws IOException if the file cannot be read
   */
  static Heif heif(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      if (!"ftyp".equals(IsoBoxes.firstType(channel))) {
        return null;
      }
      IsoBoxes.FileBox ftyp;
      try {
        ftyp = IsoBoxes.find(channel, "ftyp");
      } catch (IsoBoxes.Malformed e) {
        return null;
      }
      ByteBuffer body =
          IsoBoxes.read(channel, ftyp.bodyOffset(), (int) Math.min(ftyp.bodyLength(), 1024));
      Set<String> brands = new LinkedHashSet<>();
      if (body.limit() >= 4) {
        brands.add(type(body, 0)); // the major brand, then the minor version, then compatible ones
      }
      for (int i = 8; i + 4 <= body.limit(); i += 4) {
        brands.add(type(body, i));
      }
      return new Heif(Set.copyOf(brands), metaNclx(channel));
    }
  }

  /**
   * The first {@code nclx} colour box of the file's top-level {@code meta}, or {@code null}: no
   * {@code meta}, one over {@link #MAX_META_BYTES}, or a box before it that runs past the end.
   */
  private static Nclx metaNclx(FileChannel channel) throws IOException {
    try {
      IsoBoxes.FileBox meta = IsoBoxes.find(channel, "meta");
      if (meta == null || meta.bodyLength() > MAX_META_BYTES) {
        return null;
      }
      ByteBuffer body = IsoBoxes.read(channel, meta.bodyOffset(), (int) meta.bodyLength());
      return nclx(body, 4, body.limit(), 0); // meta is a full box: skip version and flags
    } catch (IsoBoxes.Malformed e) {
      return null;
    }
  }

  /** Finds {@code iprp/ipco/colr(nclx)} in {@code [start, end)} of {@code box}. */
  private static Nclx nclx(ByteBuffer box, int start, int end, int depth) {
    int offset = start;
    while (offset + 8 <= end && depth < 4) {
      long size = Integer.toUnsignedLong(box.getInt(offset));
      String type = type(box, offset + 4);
      if (size < 8 || offset + size > end) {
        return null;
      }
      int bodyStart = offset + 8;
      int bodyEnd = (int) (offset + size);
      if (type.equals("iprp") || type.equals("ipco")) {
        Nclx found = nclx(box, bodyStart, bodyEnd, depth + 1);
        if (found != null) {
          return found;
        }
      } else if (type.equals("colr")
          && bodyEnd - bodyStart >= 11
          && type(box, bodyStart).equals("nclx")) {
        return new Nclx(
            Short.toUnsignedInt(box.getShort(bodyStart + 4)),
            Short.toUnsignedInt(box.getShort(bodyStart + 6)),
            Short.toUnsignedInt(box.getShort(bodyStart + 8)),
            (box.get(bodyStart + 10) & 0x80) != 0);
      }
      offset = bodyEnd;
    }
    return null;
  }

  /**
   * A JPEG's frame header: {@code marker} is the SOF code ({@code 0xC0} baseline, {@code 0xC1}
   * extended, {@code 0xC2} progressive, {@code 0xC3} lossless, {@code 0xC9}-{@code 0xCF}
   * arithmetic), {@code precision} the sample bits (8, 12, 16).
   */
  record JpegFrame(int marker, int precision) {
    /** Whether the entropy coding is arithmetic (SOF9-11, SOF13-15), which the JDK refuses. */
    boolean arithmetic() {
      return marker >= 0xC9;
    }

    /** Whether libvips' decoder (mozjpeg: 8-bit DCT, Huffman or arithmetic) reads this frame. */
    boolean libvipsDecodes() {
      return precision == 8 && marker != 0xC3 && marker != 0xCB && marker != 0xC7 && marker != 0xCF;
    }
  }

  /**
   * The frame header of a JPEG, found by walking its marker segments up to the first SOF; {@code
   * null} if {@code file} is not a JPEG or has no frame header before its first scan.
   *
   * @throws IOException if the file cannot be read
   */
  static JpegFrame jpegFrame(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      ByteBuffer soi = read(channel, 0, 2);
      if (soi.limit() < 2 || (soi.get(0) & 0xFF) != 0xFF || (soi.get(1) & 0xFF) != 0xD8) {
        return null;
      }
      long offset = 2;
      for (int segments = 0; segments < 1000 && offset + 4 <= size; segments++) {
        ByteBuffer marker = read(channel, offset, 5);
        if ((marker.get(0) & 0xFF) != 0xFF) {
          return null;
        }
        int code = marker.get(1) & 0xFF;
        if (code == 0xFF) {
          offset++; // fill byte
          continue;
        }
        if (code >= 0xC0 && code <= 0xCF && code != 0xC4 && code != 0xC8 && code != 0xCC) {
          return marker.limit() < 5 ? null : new JpegFrame(code, marker.get(4) & 0xFF);
        }
        if (code == 0xDA || code == 0xD9) {
          return null; // scan or end before any frame header
        }
        offset += 2 + Short.toUnsignedInt(marker.getShort(2));
      }
      return null;
    }
  }

  /**
   * Whether a TIFF's first image is CMYK (PhotometricInterpretation 5, Separated), read from IFD0;
   * {@code false} for anything else.
   *
   * @throws IOException if the file cannot be read
   */
  static boolean cmykTiff(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer header = read(channel, 0, 8);
      if (header.limit() < 8) {
        return false;
      }
      if (header.get(0) == 'I' && header.get(1) == 'I') {
        header.order(ByteOrder.LITTLE_ENDIAN);
      } else if (header.get(0) != 'M' || header.get(1) != 'M') {
        return false;
      }
      if (header.getShort(2) != 42) {
        return false;
      }
      long ifd = Integer.toUnsignedLong(header.getInt(4));
      ByteBuffer count = read(channel, ifd, 2).order(header.order());
      if (count.limit() < 2) {
        return false;
      }
      int entries = Math.min(Short.toUnsignedInt(count.getShort(0)), 1000);
      ByteBuffer table = read(channel, ifd + 2, entries * 12).order(header.order());
      for (int i = 0; i + 12 <= table.limit(); i += 12) {
        if (Short.toUnsignedInt(table.getShort(i)) == 262) {
          return Short.toUnsignedInt(table.getShort(i + 8)) == 5;
        }
      }
      return false;
    }
  }

  /** An SVG's start: an optional XML declaration, comments and doctype, then the svg element. */
  private static final java.util.regex.Pattern SVG_START =
      java.util.regex.Pattern.compile(
          "\\A\\s*(<\\?xml[^>]*>\\s*)?(<!--.*?-->\\s*|<!DOCTYPE[^>]*>\\s*)*<svg[\\s>]",
          java.util.regex.Pattern.DOTALL);

  /**
   * Whether the file is an SVG by its content: its first element (after an optional UTF-8 byte
   * order mark, XML declaration, comments and doctype, in the first 4 KB) is {@code svg}.
   *
   * @throws IOException if the file cannot be read
   */
  static boolean svg(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer head = read(channel, 0, 4096);
      return svg(java.util.Arrays.copyOf(head.array(), head.limit()));
    }
  }

  /** Whether {@code head}, a file's first bytes (4 KB or all of it), starts an SVG. */
  static boolean svg(byte[] head) {
    String text = new String(head, StandardCharsets.UTF_8);
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    return SVG_START.matcher(text).lookingAt();
  }

  /**
   * Whether the file is a BigTIFF: a TIFF header ({@code II} or {@code MM}) with version 43 instead
   * of 42, 8-byte offsets (BigTIFF design, as libtiff 4 implements it). ImageIO has no reader for
   * it; libvips' libtiff reads it.
   *
   * @throws IOException if the file cannot be read
   */
  static boolean bigTiff(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer header = read(channel, 0, 4);
      if (header.limit() < 4) {
        return false;
      }
      if (header.get(0) == 'I' && header.get(1) == 'I') {
        header.order(ByteOrder.LITTLE_ENDIAN);
      } else if (header.get(0) != 'M' || header.get(1) != 'M') {
        return false;
      }
      return header.getShort(2) == 43;
    }
  }

  /**
   * The width and height a BMP's header declares (BITMAPCOREHEADER's 16-bit or the later headers'
   * 32-bit fields; a negative height means top-down rows), or {@code null} for anything that is not
   * a BMP. Read before ImageIO, whose reader fails on a header declaring more pixels than an array
   * holds, so a pixel bomb is reported by its size.
   *
   * @throws IOException if the file cannot be read
   */
  static long[] bmpSize(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer header = read(channel, 0, 26).order(ByteOrder.LITTLE_ENDIAN);
      if (header.limit() < 26 || header.get(0) != 'B' || header.get(1) != 'M') {
        return null;
      }
      int infoSize = header.getInt(14);
      if (infoSize == 12) {
        return new long[] {
          Short.toUnsignedInt(header.getShort(18)), Short.toUnsignedInt(header.getShort(20))
        };
      }
      if (infoSize < 40) {
        return null;
      }
      return new long[] {Math.abs((long) header.getInt(18)), Math.abs((long) header.getInt(22))};
    }
  }

  /**
   * Whether the file is a WebP: a RIFF container (bytes 0-3 {@code RIFF}) of form type {@code WEBP}
   * (bytes 8-11), as the WebP Container Specification (RIFF) defines it.
   *
   * @throws IOException if the file cannot be read
   */
  static boolean webp(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer header = read(channel, 0, 12);
      return header.limit() >= 12
          && type(header, 0).equals("RIFF")
          && type(header, 8).equals("WEBP");
    }
  }

  /**
   * Whether the file is a PNG whose 8-byte signature was damaged: bytes 1-3 are still {@code PNG}
   * and the header chunk type {@code IHDR} follows within the first 32 bytes, but the signature is
   * not the PNG signature (PNG specification section 5.2). The signature's CR, LF and EOF bytes
   * exist to catch a file sent through a text-mode transfer that rewrote its line endings (PngSuite
   * {@code xcrn0g04}, {@code xlfn0g04}) or stripped the high bit (PngSuite {@code xs1n0g01}): such
   * a file is a damaged PNG, not another format.
   *
   * @throws IOException if the file cannot be read
   */
  static boolean pngSignatureDamaged(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer head = read(channel, 0, 32);
      if (head.limit() < 16 || head.getLong(0) == PNG_SIGNATURE || !type(head, 0).endsWith("PNG")) {
        return false;
      }
      String start = new String(head.array(), 0, head.limit(), StandardCharsets.ISO_8859_1);
      return start.indexOf("IHDR", 8) > 0;
    }
  }

  /**
   * Whether a PNG's header chunk (IHDR, which must come first) fails its CRC-32, as libpng and
   * browsers refuse it; {@code false} for anything that is not a PNG or has no IHDR first.
   *
   * @throws IOException if the file cannot be read
   */
  static boolean pngHeaderDamaged(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer head = read(channel, 0, 33);
      if (head.limit() < 33 || head.getLong(0) != PNG_SIGNATURE || !type(head, 12).equals("IHDR")) {
        return false;
      }
      CRC32 crc = new CRC32();
      crc.update(head.slice(12, 17));
      return head.getInt(29) != (int) crc.getValue();
    }
  }

  /**
   * Whether a run-length-encoded BMP (RLE8 or RLE4) is provably broken: a run or an absolute block
   * that goes past the end of its row, a delta or a row past the last row, or data that ends
   * without the end-of-bitmap code. The JDK's BMP reader decodes such files into garbage without a
   * word; {@code false} for anything else.
   *
   * @throws IOException if the file cannot be read
   */
  static boolean bmpRleBroken(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer header = read(channel, 0, 34).order(ByteOrder.LITTLE_ENDIAN);
      if (header.limit() < 34 || header.get(0) != 'B' || header.get(1) != 'M') {
        return false;
      }
      int compression = header.getInt(30);
      if (compression != 1 && compression != 2) {
        return false;
      }
      long dataOffset = Integer.toUnsignedLong(header.getInt(10));
      long width = Math.abs((long) header.getInt(18));
      long height = Math.abs((long) header.getInt(22));
      long length = channel.size() - dataOffset;
      if (length <= 0 || length > MAX_RLE_BYTES) {
        return length <= 0;
      }
      ByteBuffer data = read(channel, dataOffset, (int) length);
      boolean four = compression == 2;
      long x = 0;
      long y = 0;
      int i = 0;
      while (i + 1 < data.limit()) {
        int count = data.get(i) & 0xFF;
        int value = data.get(i + 1) & 0xFF;
        i += 2;
        if (count > 0) {
          x += count;
          if (x > width || y >= height) {
            return true;
          }
        } else if (value == 0) {
          x = 0;
          y++;
        } else if (value == 1) {
          return false; // end of bitmap
        } else if (value == 2) {
          if (i + 1 >= data.limit()) {
            return true;
          }
          x += data.get(i) & 0xFF;
          y += data.get(i + 1) & 0xFF;
          i += 2;
          if (x > width || y > height) {
            return true;
          }
        } else {
          x += value;
          if (x > width || y >= height) {
            return true;
          }
          int bytes = four ? (value + 1) / 2 : value;
          i += bytes + (bytes & 1); // absolute blocks are padded to 16 bits
        }
      }
      return true; // no end-of-bitmap code
    }
  }

  private static ByteBuffer read(FileChannel channel, long offset, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, offset + buffer.position()) < 0) {
        break;
      }
    }
    return buffer.flip();
  }

  private static String type(ByteBuffer buffer, int offset) {
    byte[] bytes = new byte[4];
    buffer.get(offset, bytes);
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }
}
