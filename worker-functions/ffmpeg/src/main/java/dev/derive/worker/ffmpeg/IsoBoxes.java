package dev.derive.worker.ffmpeg;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The boxes of an ISO base media file (ISO/IEC 14496-12: MP4, MOV, HEIF), read without trusting a
 * size: a box that runs past its parent or the file, a 64-bit size past {@code int}, or more
 * top-level boxes than {@link #MAX_TOP_LEVEL_BOXES} is {@link Malformed}. Derive reads the headers
 * of HEIF photos and MP4/MOV videos with it before FFmpeg sees the file; it only walks boxes, the
 * callers parse the ones they need and descend only where they choose (so nesting is bounded by
 * their code, not by the file).
 */
public final class IsoBoxes {
  /**
   * The most top-level boxes looked at before the one wanted: real files have fewer than ten; a
   * file of a million 8-byte boxes would otherwise cost a read each.
   */
  public static final int MAX_TOP_LEVEL_BOXES = 1024;

  private IsoBoxes() {}

  /** A box inside a buffer: its type and the range of its body, after the header. */
  public record Box(String type, int start, int end) {
    /** The body's length in bytes. */
    public int length() {
      return end - start;
    }
  }

  /** A top-level box of a file: its type, where its body starts and how long it is, in bytes. */
  public record FileBox(String type, long bodyOffset, long bodyLength) {}

  /** Boxes that contradict their sizes or the file's: a damaged or cut short file. */
  public static final class Malformed extends Exception {
    public Malformed(String message) {
      super(message);
    }
  }

  /**
   * The first top-level box of {@code type} in {@code channel}, or {@code null} if the file ends
   * first.
   *
   * @throws Malformed if a box before it (or it) runs past the end of the file, or over {@link
   *     #MAX_TOP_LEVEL_BOXES} come before it
   */
  public static FileBox find(FileChannel channel, String type) throws IOException, Malformed {
    long size = channel.size();
    long offset = 0;
    for (int n = 0; offset + 8 <= size; n++) {
      if (n == MAX_TOP_LEVEL_BOXES) {
        throw new Malformed("it has over " + MAX_TOP_LEVEL_BOXES + " top-level boxes");
      }
      ByteBuffer header = read(channel, offset, 16);
      long boxSize = Integer.toUnsignedLong(header.getInt(0));
      String found = fourcc(header, 4);
      int headerSize = 8;
      if (boxSize == 1 && header.limit() >= 16) {
        boxSize = header.getLong(8);
        headerSize = 16;
      } else if (boxSize == 0) {
        boxSize = size - offset;
      }
      if (boxSize < headerSize || boxSize > size - offset) {
        throw new Malformed("the " + printable(found) + " box runs past the end of the file");
      }
      if (found.equals(type)) {
        return new FileBox(found, offset + headerSize, boxSize - headerSize);
      }
      offset += boxSize;
    }
    return null;
  }

  /**
   * The type of the first box of {@code channel}, or {@code null} if it is shorter than 8 bytes.
   */
  public static String firstType(FileChannel channel) throws IOException {
    ByteBuffer header = read(channel, 0, 8);
    return header.limit() < 8 ? null : fourcc(header, 4);
  }

  /**
   * The boxes in {@code [start, end)} of {@code buffer}, in order.
   *
   * @throws Malformed if one runs past {@code end}
   */
  public static List<Box> children(ByteBuffer buffer, int start, int end) throws Malformed {
    List<Box> boxes = new ArrayList<>();
    int at = start;
    while (at + 8 <= end) {
      long size = Integer.toUnsignedLong(buffer.getInt(at));
      String type = fourcc(buffer, at + 4);
      int header = 8;
      if (size == 1) {
        if (at + 16 > end) {
          throw new Malformed("its " + printable(type) + " box is cut short");
        }
        size = buffer.getLong(at + 8);
        header = 16;
      } else if (size == 0) {
        size = end - at;
      }
      if (size < header || size > end - at) {
        throw new Malformed("its " + printable(type) + " box is damaged or cut short");
      }
      boxes.add(new Box(type, at + header, (int) (at + size)));
      at += (int) size;
    }
    return boxes;
  }

  /** The first box of {@code type} in {@code [start, end)} of {@code buffer}, or {@code null}. */
  public static Box child(ByteBuffer buffer, int start, int end, String type) throws Malformed {
    for (Box box : children(buffer, start, end)) {
      if (box.type().equals(type)) {
        return box;
      }
    }
    return null;
  }

  /** An unsigned big-endian integer of {@code size} bytes (0, 1, 2, 4 or 8) at {@code at}. */
  public static long uint(ByteBuffer buffer, int at, int size) {
    return switch (size) {
      case 0 -> 0;
      case 4 -> Integer.toUnsignedLong(buffer.getInt(at));
      case 8 -> buffer.getLong(at);
      case 2 -> Short.toUnsignedInt(buffer.getShort(at));
      case 1 -> Byte.toUnsignedInt(buffer.get(at));
      default -> throw new IndexOutOfBoundsException("field of " + size + " bytes");
    };
  }

  /** The four-character code at {@code at}. */
  public static String fourcc(ByteBuffer buffer, int at) {
    byte[] bytes = new byte[4];
    buffer.get(at, bytes);
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  /**
   * Up to {@code length} bytes of {@code channel} from {@code offset}, big-endian, flipped (fewer
   * if the file ends first).
   */
  public static ByteBuffer read(FileChannel channel, long offset, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.BIG_ENDIAN);
    long position = offset;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, position);
      if (n < 0) {
        break;
      }
      position += n;
    }
    return buffer.flip();
  }

  /** A box type fit for a message: letters and digits kept, anything else as {@code ?}. */
  private static String printable(String type) {
    StringBuilder out = new StringBuilder();
    for (char c : type.toCharArray()) {
      out.append(Character.isLetterOrDigit(c) || c == ' ' ? c : '?');
    }
    return out.toString();
  }
}
