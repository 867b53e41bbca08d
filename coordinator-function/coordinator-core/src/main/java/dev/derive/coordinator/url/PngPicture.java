package dev.derive.coordinator.url;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.DeflaterOutputStream;

/**
 * A PNG (RFC 2083, ISO/IEC 15948) of 8-bit RGBA pixels, written without AWT: an IHDR, one IDAT of
 * unfiltered rows, an IEND. For placeholders of a few hundred pixels, where size and speed do not
 * matter and the API function should not load Java2D.
 */
final class PngPicture {
  /**
   * The media type of what {@link #encode} writes: the API's own picture, whatever capabilities are
   * deployed (allowed by {@code NoCapabilityInTheCoordinatorTest}).
   */
  static final String MEDIA_TYPE = "image/png";

  private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

  private PngPicture() {}

  /** The PNG of {@code rgba}, {@code width} x {@code height} pixels, row after row. */
  static byte[] encode(int width, int height, byte[] rgba) {
    ByteArrayOutputStream rows = new ByteArrayOutputStream();
    try (DeflaterOutputStream deflate = new DeflaterOutputStream(rows)) {
      for (int y = 0; y < height; y++) {
        deflate.write(0); // filter type None
        deflate.write(rgba, y * width * 4, width * 4);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e); // not thrown by in-memory streams
    }
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    png.writeBytes(SIGNATURE);
    chunk(
        png,
        "IHDR",
        ByteBuffer.allocate(13)
            .putInt(width)
            .putInt(height)
            .put((byte) 8) // bit depth
            .put((byte) 6) // colour type RGBA
            .put((byte) 0)
            .put((byte) 0)
            .put((byte) 0)
            .array());
    chunk(png, "IDAT", rows.toByteArray());
    chunk(png, "IEND", new byte[0]);
    return png.toByteArray();
  }

  private static void chunk(ByteArrayOutputStream png, String type, byte[] data) {
    byte[] name = type.getBytes(StandardCharsets.US_ASCII);
    CRC32 crc = new CRC32();
    crc.update(name);
    crc.update(data);
    png.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
    png.writeBytes(name);
    png.writeBytes(data);
    png.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }
}
