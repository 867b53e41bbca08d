package dev.derive.worker.libvips;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * EXIF metadata the image tests write themselves: an EXIF block (TIFF 6.0 structure) holding only
 * the Orientation tag, and a JPEG carrying a block in an APP1 segment (EXIF 2.3 §4.5.4). Shared by
 * the binding's tests and the image worker's (through this module's test-jar).
 */
public final class ExifBlocks {
  private ExifBlocks() {}

  /**
   * An EXIF block holding only the Orientation tag: TIFF 6.0, little-endian, IFD0 with one SHORT
   * entry 0x0112 (26 bytes).
   */
  public static byte[] orientation(int orientation) {
    ByteBuffer tiff = ByteBuffer.allocate(26).order(ByteOrder.LITTLE_ENDIAN);
    tiff.put((byte) 'I').put((byte) 'I').putShort((short) 42).putInt(8); // header, IFD0 at 8
    tiff.putShort((short) 1); // one entry
    tiff.putShort((short) 0x0112).putShort((short) 3).putInt(1); // Orientation, SHORT, count 1
    tiff.putShort((short) orientation).putShort((short) 0); // value, padding
    tiff.putInt(0); // no next IFD
    return tiff.array();
  }

  /**
   * {@code jpeg} with an APP1 segment holding {@code tiff} ({@code Exif\0\0}, then the block)
   * inserted right after its SOI marker.
   */
  public static byte[] inJpeg(byte[] jpeg, byte[] tiff) {
    byte[] header = "Exif\0\0".getBytes(StandardCharsets.US_ASCII);
    int length = 2 + header.length + tiff.length;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(jpeg, 0, 2); // SOI
    out.write(0xFF);
    out.write(0xE1);
    out.write(length >> 8);
    out.write(length & 0xFF);
    out.writeBytes(header);
    out.writeBytes(tiff);
    out.write(jpeg, 2, jpeg.length - 2);
    return out.toByteArray();
  }
}
