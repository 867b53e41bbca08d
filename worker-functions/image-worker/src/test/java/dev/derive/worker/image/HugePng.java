package dev.derive.worker.image;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes a transparent black 16-bit RGBA PNG of any size in a fraction of a second, and small: a
 * 10000 x 10000 one (800 MB of pixels) is under 1 MB. Every pixel and every filter byte is 0, so
 * the zlib stream is one compressed run of zeros, fully flushed (no back-reference crosses it),
 * repeated, then a final empty block and the Adler-32 of that many zero bytes.
 */
final class HugePng {
  private HugePng() {}

  /** Writes the PNG to {@code file}; {@code height} must be a multiple of 100. */
  static Path write(Path file, int width, int height) throws IOException {
    if (height % 100 != 0) {
      throw new IllegalArgumentException("height must be a multiple of 100: " + height);
    }
    long rowBytes = 1 + (long) width * 8; // filter byte + 4 samples of 2 bytes
    byte[] run = deflatedZeros(rowBytes * 100);
    long total = rowBytes * height;
    ByteArrayOutputStream zlib = new ByteArrayOutputStream();
    zlib.write(0x78);
    zlib.write(0xDA);
    for (int i = 0; i < height / 100; i++) {
      zlib.write(run);
    }
    zlib.write(0x03); // final block, fixed Huffman codes, end of block
    zlib.write(0x00);
    long adler = ((total % 65521) << 16) | 1; // a = 1, b = n (mod 65521) for n zero bytes
    new DataOutputStream(zlib).writeInt((int) adler);

    try (OutputStream out = Files.newOutputStream(file)) {
      out.write(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'});
      ByteArrayOutputStream header = new ByteArrayOutputStream();
      DataOutputStream ihdr = new DataOutputStream(header);
      ihdr.writeInt(width);
      ihdr.writeInt(height);
      ihdr.write(
          new byte[] {16, 6, 0, 0, 0}); // 16-bit, RGBA, deflate, adaptive filter, no interlace
      chunk(out, "IHDR", header.toByteArray());
      chunk(out, "IDAT", zlib.toByteArray());
      chunk(out, "IEND", new byte[0]);
    }
    return file;
  }

  /** Raw deflate of {@code count} zero bytes ending in a full flush (byte-aligned, no history). */
  private static byte[] deflatedZeros(long count) {
    Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] zeros = new byte[1 << 20];
    byte[] buffer = new byte[1 << 16];
    long left = count;
    while (left > 0) {
      int n = (int) Math.min(zeros.length, left);
      deflater.setInput(zeros, 0, n);
      left -= n;
      while (!deflater.needsInput()) {
        out.write(buffer, 0, deflater.deflate(buffer, 0, buffer.length, Deflater.NO_FLUSH));
      }
    }
    int n;
    while ((n = deflater.deflate(buffer, 0, buffer.length, Deflater.FULL_FLUSH)) > 0) {
      out.write(buffer, 0, n);
      if (n < buffer.length) {
        break;
      }
    }
    deflater.end();
    return out.toByteArray();
  }

  private static void chunk(OutputStream out, String type, byte[] data) throws IOException {
    DataOutputStream stream = new DataOutputStream(out);
    byte[] name = type.getBytes(StandardCharsets.US_ASCII);
    CRC32 crc = new CRC32();
    crc.update(name);
    crc.update(data);
    stream.writeInt(data.length);
    stream.write(name);
    stream.write(data);
    stream.writeInt((int) crc.getValue());
  }
}
