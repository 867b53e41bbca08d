package dev.derive.worker.image;

import dev.derive.worker.ffmpeg.Ffmpeg;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes one HEVC-coded HEIF image (an {@code hvc1} item, or a {@code grid} of them, as iPhones
 * store a photo in 512x512 tiles) with FFmpeg's HEVC decoder: the tiles' bitstreams, each with its
 * parameter sets, go to {@code ffmpeg} as one raw HEVC stream on its standard input (FFmpeg never
 * sees the file, only pictures), come back as raw RGB frames, and are laid out on the grid's canvas
 * here. Optionally shrunk by 2, 4 or 8 inside FFmpeg (an exact area average of each tile, so tile
 * edges stay seamless).
 *
 * <p>FFmpeg's default threading decodes a grid's tiles in parallel (frame threads); a HEIC of one
 * picture decodes on one thread. Its wavefront (slice) threading would decode such a picture about
 * 1.7 times as fast, but it hung once in about 15 runs on a 12 MP picture (killed at {@link
 * #TIMEOUT} in the bench), so it stays off.
 */
// Over 300 lines because grid tiles, shrink, samples and colour come from one FFmpeg output.
final class HeicDecoder {
  /** The longest a decode may take before FFmpeg is killed; the step's own deadline comes first. */
  static final Duration TIMEOUT = Duration.ofMinutes(2);

  /** The most compressed bytes of one image read (a 48 MP iPhone photo is about 10 MB). */
  static final long MAX_CODED_BYTES = 256L << 20;

  /** A picture's layout: the tiles in raster order, each {@code tileWidth x tileHeight}. */
  record Layout(
      List<HeifStructure.Item> tiles,
      int columns,
      int rows,
      int tileWidth,
      int tileHeight,
      int width,
      int height,
      HeifStructure.HevcConfig config) {}

  private HeicDecoder() {}

  /**
   * The layout of {@code image} from its boxes alone.
   *
   * @throws HeifStructure.Malformed if a tile or property it needs is missing or inconsistent
   * @throws UnsupportedCoding if it is not HEVC-coded
   */
  static Layout layout(HeifStructure heif, HeifStructure.Item image)
      throws HeifStructure.Malformed, UnsupportedCoding, IOException {
    if (image.type().equals("hvc1")) {
      HeifStructure.HevcConfig config = config(image);
      HeifStructure.Extent extent = extent(image);
      return new Layout(
          List.of(image),
          1,
          1,
          extent.width(),
          extent.height(),
          extent.width(),
          extent.height(),
          config);
    }
    if (!image.type().equals("grid")) {
      throw new UnsupportedCoding(image.type());
    }
    ByteBuffer grid = ByteBuffer.wrap(heif.data(image, 64));
    if (grid.remaining() < 8) {
      throw new HeifStructure.Malformed("its grid description is cut short");
    }
    boolean wide = (grid.get(1) & 1) != 0;
    int rows = Byte.toUnsignedInt(grid.get(2)) + 1;
    int columns = Byte.toUnsignedInt(grid.get(3)) + 1;
    int width = wide ? grid.getInt(4) : Short.toUnsignedInt(grid.getShort(4));
    int height = wide ? grid.getInt(8) : Short.toUnsignedInt(grid.getShort(6));
    List<Integer> ids = image.referenced("dimg");
    if (ids.size() != rows * columns) {
      throw new HeifStructure.Malformed(
          "its " + columns + "x" + rows + " grid has " + ids.size() + " tiles");
    }
    List<HeifStructure.Item> tiles = new ArrayList<>();
    for (int id : ids) {
      HeifStructure.Item tile = heif.item(id);
      if (!tile.type().equals("hvc1")) {
        throw new UnsupportedCoding(tile.type());
      }
      tiles.add(tile);
    }
    HeifStructure.Extent tile = extent(tiles.getFirst());
    if ((long) tile.width() * columns < width || (long) tile.height() * rows < height) {
      throw new HeifStructure.Malformed("its tiles do not cover its grid");
    }
    return new Layout(
        List.copyOf(tiles),
        columns,
        rows,
        tile.width(),
        tile.height(),
        width,
        height,
        config(tiles.getFirst()));
  }

  /** The coding is not HEVC (an {@code av01} or {@code jpeg} item, which other decoders read). */
  static final class UnsupportedCoding extends Exception {
    UnsupportedCoding(String itemType) {
      super(itemType);
    }
  }

  private static HeifStructure.HevcConfig config(HeifStructure.Item item)
      throws HeifStructure.Malformed {
    HeifStructure.HevcConfig config = item.property(HeifStructure.HevcConfig.class);
    if (config == null) {
      throw new HeifStructure.Malformed("item " + item.id() + " has no HEVC configuration");
    }
    return config;
  }

  private static HeifStructure.Extent extent(HeifStructure.Item item)
      throws HeifStructure.Malformed {
    HeifStructure.Extent extent = item.property(HeifStructure.Extent.class);
    if (extent == null || extent.width() <= 0 || extent.height() <= 0) {
      throw new HeifStructure.Malformed("item " + item.id() + " has no size (ispe)");
    }
    return extent;
  }

  /** The largest of 8, 4, 2 and 1 at most {@code subsampling} that divides the tiles exactly. */
  static int shrink(Layout layout, int subsampling) {
    for (int f = 8; f > 1; f /= 2) {
      if (f <= subsampling && layout.tileWidth() % f == 0 && layout.tileHeight() % f == 0) {
        return f;
      }
    }
    return 1;
  }

  /** What FFmpeg hands back per pixel. */
  enum Samples {
    RGB8("rgb24", 3),
    RGB16("rgb48le", 6),
    GREY8("gray", 1);

    final String pixelFormat;
    final int bytes;

    Samples(String pixelFormat, int bytes) {
      this.pixelFormat = pixelFormat;
      this.bytes = bytes;
    }
  }

  /**
   * Decodes {@code layout} shrunk by {@code shrink}: the canvas ({@code ceil(width / shrink) x
   * ceil(height / shrink)}) as band-interleaved samples, row after row.
   *
   * @param nclx the colour description to convert with ({@code null}: the bitstream's own)
   * @throws dev.derive.worker.ffmpeg.FfmpegException if FFmpeg cannot decode a tile
   */
  static byte[] decode(
      HeifStructure heif, Layout layout, int shrink, Samples samples, Sniffer.Nclx nclx)
      throws IOException, HeifStructure.Malformed {
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    long coded = 0;
    for (HeifStructure.Item tile : layout.tiles()) {
      byte[] data = heif.data(tile, MAX_CODED_BYTES - coded);
      coded += data.length;
      annexB(config(tile), data, stream);
    }
    int tileWidth = layout.tileWidth() / shrink;
    int tileHeight = layout.tileHeight() / shrink;
    long frameBytes = (long) tileWidth * tileHeight * samples.bytes;
    long expected = frameBytes * layout.tiles().size();
    StringBuilder filter =
        new StringBuilder("scale=w=").append(tileWidth).append(":h=").append(tileHeight);
    filter.append(":flags=area+accurate_rnd+full_chroma_int");
    if (nclx != null) {
      String matrix =
          switch (nclx.matrix()) {
            case 1 -> "bt709";
            case 5, 6 -> "bt601";
            case 9, 10 -> "bt2020";
            default -> null;
          };
      if (matrix != null) {
        filter.append(":in_color_matrix=").append(matrix);
      }
      filter.append(":in_range=").append(nclx.fullRange() ? "full" : "limited");
    }
    byte[] frames =
        Ffmpeg.shared()
            .run(
                Ffmpeg.Tool.FFMPEG,
                List.of(
                    "-v",
                    "error",
                    "-xerror",
                    "-nostats",
                    "-protocol_whitelist",
                    "pipe",
                    "-f",
                    "hevc",
                    "-i",
                    "pipe:0",
                    "-vf",
                    filter.toString(),
                    "-fps_mode",
                    "passthrough",
                    "-f",
                    "rawvideo",
                    "-pix_fmt",
                    samples.pixelFormat,
                    "pipe:1"),
                stream.toByteArray(),
                expected,
                TIMEOUT);
    if (frames.length != expected) {
      throw new HeifStructure.Malformed(
          "FFmpeg decoded "
              + frames.length / frameBytes
              + " of its "
              + layout.tiles().size()
              + " tiles");
    }
    int width = Math.ceilDiv(layout.width(), shrink);
    int height = Math.ceilDiv(layout.height(), shrink);
    if (layout.tiles().size() == 1 && width == tileWidth && height == tileHeight) {
      return frames;
    }
    byte[] canvas = new byte[width * height * samples.bytes];
    for (int t = 0; t < layout.tiles().size(); t++) {
      int left = (t % layout.columns()) * tileWidth;
      int top = (t / layout.columns()) * tileHeight;
      int copyWidth = Math.min(tileWidth, width - left);
      for (int y = 0; y < tileHeight && top + y < height; y++) {
        if (copyWidth <= 0) {
          break;
        }
        System.arraycopy(
            frames,
            (int) (t * frameBytes + (long) y * tileWidth * samples.bytes),
            canvas,
            ((top + y) * width + left) * samples.bytes,
            copyWidth * samples.bytes);
      }
    }
    return canvas;
  }

  /**
   * Appends one picture as Annex B (start codes): its parameter sets, its NAL units (stored with
   * length prefixes) and an end-of-sequence NAL unit, so each tile starts a coded video sequence of
   * its own and comes out in order.
   */
  private static void annexB(
      HeifStructure.HevcConfig config, byte[] data, ByteArrayOutputStream out)
      throws HeifStructure.Malformed {
    for (byte[] set : config.parameterSets()) {
      out.writeBytes(new byte[] {0, 0, 0, 1});
      out.writeBytes(set);
    }
    int at = 0;
    int size = config.nalLengthSize();
    while (at + size <= data.length) {
      long length = 0;
      for (int i = 0; i < size; i++) {
        length = length << 8 | (data[at + i] & 0xFF);
      }
      at += size;
      if (length > data.length - at) {
        throw new HeifStructure.Malformed("a picture's data is cut short");
      }
      out.writeBytes(new byte[] {0, 0, 0, 1});
      out.write(data, at, (int) length);
      at += (int) length;
    }
    out.writeBytes(new byte[] {0, 0, 0, 1, 0x48, 0x01}); // EOS_NUT (36)
  }

  /** 8-bit samples as an image: RGB, with {@code alpha} (grey samples, same size) when given. */
  static BufferedImage image(byte[] rgb, byte[] alpha, int width, int height) {
    BufferedImage out =
        new BufferedImage(
            width,
            height,
            alpha != null ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
    int[] row = new int[width];
    for (int y = 0; y < height; y++) {
      int i = y * width * 3;
      for (int x = 0; x < width; x++, i += 3) {
        int a = alpha != null ? alpha[y * width + x] & 0xFF : 0xFF;
        row[x] = a << 24 | (rgb[i] & 0xFF) << 16 | (rgb[i + 1] & 0xFF) << 8 | rgb[i + 2] & 0xFF;
      }
      out.setRGB(0, y, width, 1, row, 0, width);
    }
    return out;
  }

  /**
   * 16-bit little-endian samples as {@code int}s, with an 8-bit alpha scaled to 16 bits as a fourth
   * band.
   */
  static int[] samples16(byte[] rgb, byte[] alpha, int pixels) {
    int bands = alpha != null ? 4 : 3;
    int[] out = new int[pixels * bands];
    for (int p = 0; p < pixels; p++) {
      for (int c = 0; c < 3; c++) {
        int i = (p * 3 + c) * 2;
        out[p * bands + c] = (rgb[i] & 0xFF) | (rgb[i + 1] & 0xFF) << 8;
      }
      if (alpha != null) {
        out[p * bands + 3] = (alpha[p] & 0xFF) * 257;
      }
    }
    return out;
  }

  /** 16-bit little-endian samples reduced to 8 bits. */
  static byte[] to8Bit(byte[] rgb16) {
    byte[] out = new byte[rgb16.length / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = rgb16[i * 2 + 1];
    }
    return out;
  }
}
