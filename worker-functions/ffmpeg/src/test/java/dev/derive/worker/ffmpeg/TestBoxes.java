package dev.derive.worker.ffmpeg;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * ISO BMFF boxes written by hand for tests of the readers (this module's and the video worker's).
 */
public final class TestBoxes {
  private TestBoxes() {}

  /** A box of {@code type} around {@code body}, with a 32-bit size. */
  public static byte[] box(String type, byte[] body) {
    return ByteBuffer.allocate(8 + body.length)
        .putInt(8 + body.length)
        .put(type.getBytes(StandardCharsets.US_ASCII))
        .put(body)
        .array();
  }

  /** {@code parts} one after another. */
  public static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
