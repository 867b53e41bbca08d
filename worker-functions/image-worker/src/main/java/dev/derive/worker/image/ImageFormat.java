package dev.derive.worker.image;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An input's format, sniffed once: its first bytes name the format (never the file's name or
 * declared media type), and only that format's structure is read further ({@link Sniffer}: the ISO
 * BMFF brands and colour box, a JPEG's frame header, a TIFF's IFD0, a PNG's header CRC, a BMP's
 * runs). {@link ImageSources} picks the decoder from it.
 */
sealed interface ImageFormat {
  /** HEIF or AVIF ({@code ftyp} first), with its brands and colour box. */
  record Heif(Sniffer.Heif structure) implements ImageFormat {}

  /** A JPEG (SOI first); {@code frame} is {@code null} when no frame header precedes a scan. */
  record Jpeg(Sniffer.JpegFrame frame) implements ImageFormat {}

  /** A TIFF: CMYK (Photometric 5 in IFD0) and BigTIFF (version 43) told apart. */
  record Tiff(boolean cmyk, boolean big) implements ImageFormat {}

  /** A WebP (RIFF of form {@code WEBP}). */
  record Webp() implements ImageFormat {}

  /** An SVG (its first element is {@code svg}). */
  record Svg() implements ImageFormat {}

  /** A PNG, or a file that was one: its signature or its header chunk damaged. */
  record Png(boolean signatureDamaged, boolean headerDamaged) implements ImageFormat {}

  /** A BMP with the size its header declares and whether its run-length coding is broken. */
  record Bmp(long[] size, boolean rleBroken) implements ImageFormat {}

  /** Anything else (GIF, PNG-less ImageIO formats, or not an image): ImageIO decides. */
  record Other() implements ImageFormat {}

  /** Bytes read to name the format (an SVG's start is looked for in them). */
  int HEAD_BYTES = 4096;

  /**
   * The format of {@code file}.
   *
   * @throws IOException if the file cannot be read
   */
  static ImageFormat sniff(Path file) throws IOException {
    ByteBuffer head = ByteBuffer.allocate(HEAD_BYTES);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      while (head.hasRemaining() && channel.read(head) >= 0) {
        // read until the head is full or the file ends
      }
    }
    byte[] bytes = new byte[head.flip().limit()];
    head.get(bytes);
    String start = new String(bytes, 0, Math.min(bytes.length, 16), StandardCharsets.ISO_8859_1);
    if (start.length() >= 8 && start.startsWith("ftyp", 4)) {
      Sniffer.Heif heif = Sniffer.heif(file);
      return heif != null ? new Heif(heif) : new Other();
    }
    if (start.startsWith("\u00FF\u00D8")) {
      return new Jpeg(Sniffer.jpegFrame(file));
    }
    if (start.startsWith("II") || start.startsWith("MM")) {
      boolean big = Sniffer.bigTiff(file);
      return new Tiff(!big && Sniffer.cmykTiff(file), big);
    }
    if (start.length() >= 12 && start.startsWith("RIFF") && start.startsWith("WEBP", 8)) {
      return new Webp();
    }
    if (start.length() >= 4 && start.startsWith("PNG", 1)) {
      return new Png(Sniffer.pngSignatureDamaged(file), Sniffer.pngHeaderDamaged(file));
    }
    if (start.startsWith("BM")) {
      return new Bmp(Sniffer.bmpSize(file), Sniffer.bmpRleBroken(file));
    }
    if (Sniffer.svg(bytes)) {
      return new Svg();
    }
    return new Other();
  }
}
