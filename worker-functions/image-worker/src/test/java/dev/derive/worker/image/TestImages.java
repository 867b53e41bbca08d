package dev.derive.worker.image;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.libvips.ExifBlocks;
import dev.derive.worker.runtime.DeclaredStep;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import javax.imageio.ImageIO;

/** Images and step messages the tests generate with Java2D and by hand-built file headers. */
final class TestImages {
  /** The image capability's declaration, as the worker module owns it. */
  static final CapabilityDescriptor DECLARATION =
      CapabilityDeclarations.ofThisWorker(TestImages.class.getClassLoader());

  static final Color TOP_LEFT = new Color(220, 20, 20);
  static final Color TOP_RIGHT = new Color(20, 200, 20);
  static final Color BOTTOM_LEFT = new Color(20, 20, 220);
  static final Color BOTTOM_RIGHT = new Color(230, 230, 20);

  private TestImages() {}

  /** A {@code width} x {@code height} RGB image with four differently coloured quadrants. */
  static BufferedImage quadrants(int width, int height) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    int hw = width / 2;
    int hh = height / 2;
    g.setColor(TOP_LEFT);
    g.fillRect(0, 0, hw, hh);
    g.setColor(TOP_RIGHT);
    g.fillRect(hw, 0, width - hw, hh);
    g.setColor(BOTTOM_LEFT);
    g.fillRect(0, hh, hw, height - hh);
    g.setColor(BOTTOM_RIGHT);
    g.fillRect(hw, hh, width - hw, height - hh);
    g.dispose();
    return image;
  }

  static byte[] encode(BufferedImage image, String format) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (!ImageIO.write(image, format, out)) {
      throw new IOException("no writer for " + format);
    }
    return out.toByteArray();
  }

  /**
   * A JPEG of {@code image} with an EXIF APP1 segment holding only the Orientation tag (TIFF 6.0
   * little-endian IFD0 with one SHORT entry 0x0112), inserted right after SOI.
   */
  static byte[] jpegWithOrientation(BufferedImage image, int orientation) throws IOException {
    return ExifBlocks.inJpeg(encode(image, "jpg"), ExifBlocks.orientation(orientation));
  }

  /**
   * A PNG of {@code image} with an {@code eXIf} chunk (registered by PNG Third Edition) holding
   * only the Orientation tag, right after IHDR (before the pixel data, where writers put it).
   */
  static byte[] pngWithOrientation(BufferedImage image, int orientation) throws IOException {
    byte[] png = encode(image, "png");
    int afterHeader = 8 + 4 + 4 + 13 + 4; // signature, IHDR's length, type, data and CRC
    byte[] tiff = ExifBlocks.orientation(orientation);
    ByteBuffer chunk = ByteBuffer.allocate(4 + 4 + tiff.length + 4);
    chunk.putInt(tiff.length).put("eXIf".getBytes(StandardCharsets.US_ASCII)).put(tiff);
    CRC32 crc = new CRC32();
    crc.update(chunk.array(), 4, 4 + tiff.length); // over the type and the data
    chunk.putInt((int) crc.getValue());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(png, 0, afterHeader);
    out.write(chunk.array());
    out.write(png, afterHeader, png.length - afterHeader);
    return out.toByteArray();
  }

  /**
   * An extended-format WebP (RFC 9649 §2.7: a VP8X chunk with the EXIF flag, the image's bitstream
   * chunk, then an EXIF chunk holding only the Orientation tag) around {@code bitstream}, a simple
   * WebP file of a {@code width} x {@code height} image without alpha.
   */
  static byte[] webpWithOrientation(byte[] simpleWebp, int width, int height, int orientation) {
    String first = new String(simpleWebp, 12, 4, StandardCharsets.US_ASCII);
    if (!first.equals("VP8 ") && !first.equals("VP8L")) {
      throw new IllegalArgumentException("not a simple WebP: its first chunk is " + first);
    }
    byte[] tiff = ExifBlocks.orientation(orientation); // 26 bytes: even, no pad byte
    ByteBuffer vp8x = ByteBuffer.allocate(8 + 10).order(ByteOrder.LITTLE_ENDIAN);
    vp8x.put("VP8X".getBytes(StandardCharsets.US_ASCII)).putInt(10);
    vp8x.put((byte) 0x08).put(new byte[3]); // flags: EXIF metadata; reserved
    vp8x.put(uint24(width - 1)).put(uint24(height - 1)); // canvas size minus one
    ByteBuffer exif = ByteBuffer.allocate(8 + tiff.length).order(ByteOrder.LITTLE_ENDIAN);
    exif.put("EXIF".getBytes(StandardCharsets.US_ASCII)).putInt(tiff.length).put(tiff);
    int bitstream = simpleWebp.length - 12;
    ByteBuffer riff =
        ByteBuffer.allocate(12 + vp8x.capacity() + bitstream + exif.capacity())
            .order(ByteOrder.LITTLE_ENDIAN);
    riff.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(riff.capacity() - 8);
    riff.put("WEBP".getBytes(StandardCharsets.US_ASCII));
    riff.put(vp8x.array()).put(simpleWebp, 12, bitstream).put(exif.array());
    return riff.array();
  }

  private static byte[] uint24(int value) {
    return new byte[] {(byte) value, (byte) (value >> 8), (byte) (value >> 16)};
  }

  /**
   * A PNG that is only a signature and an IHDR declaring {@code width} x {@code height} RGB pixels:
   * a decoder would fail on it (there is no pixel data), so only a header-first check can answer
   * {@code input-too-large}.
   */
  static byte[] pngHeaderOnly(int width, int height) {
    ByteBuffer ihdr = ByteBuffer.allocate(17);
    ihdr.put("IHDR".getBytes(StandardCharsets.US_ASCII));
    ihdr.putInt(width).putInt(height);
    ihdr.put((byte) 8).put((byte) 2).put((byte) 0).put((byte) 0).put((byte) 0);
    CRC32 crc = new CRC32();
    crc.update(ihdr.array());
    ByteBuffer png = ByteBuffer.allocate(8 + 4 + 17 + 4);
    png.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'});
    png.putInt(13).put(ihdr.array()).putInt((int) crc.getValue());
    return png.array();
  }

  /** Bytes that start like a JPEG (SOI, APP0 JFIF) and continue as garbage. */
  static byte[] corruptJpeg() {
    byte[] bytes = new byte[2048];
    new java.util.Random(42).nextBytes(bytes);
    byte[] head = {
      (byte) 0xFF,
      (byte) 0xD8,
      (byte) 0xFF,
      (byte) 0xE0,
      0,
      16,
      'J',
      'F',
      'I',
      'F',
      0,
      1,
      1,
      0,
      0,
      1,
      0,
      1,
      0,
      0,
      (byte) 0xFF,
      (byte) 0xDB,
      0,
      3
    };
    System.arraycopy(head, 0, bytes, 0, head.length);
    return bytes;
  }

  /** A resize operation into {@code width} x {@code height}, never enlarging. */
  static Operation resize(int width, int height) {
    return resize(width, height, true);
  }

  static Operation resize(int width, int height, boolean withoutEnlargement) {
    return new Operation(
        ImageRecipe.RESIZE,
        Map.of(
            "width",
            width,
            "height",
            height,
            "fit",
            "inside",
            "withoutEnlargement",
            withoutEnlargement));
  }

  /** A resize operation into {@code width} x {@code height} with {@code fit}. */
  static Operation resize(int width, int height, String fit, boolean withoutEnlargement) {
    return new Operation(
        ImageRecipe.RESIZE,
        Map.of(
            "width",
            width,
            "height",
            height,
            "fit",
            fit,
            "withoutEnlargement",
            withoutEnlargement));
  }

  /** A background operation: flatten onto {@code colour} (#rrggbb or #rrggbbaa), colour padding. */
  static Operation background(String colour) {
    return new Operation(ImageRecipe.BACKGROUND, Map.of("background", colour));
  }

  /** A {@code width} x {@code height} RGB image of equally wide vertical bands, left to right. */
  static BufferedImage bands(int width, int height, Color... colours) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    for (int i = 0; i < colours.length; i++) {
      int left = width * i / colours.length;
      int right = width * (i + 1) / colours.length;
      g.setColor(colours[i]);
      g.fillRect(left, 0, right - left, height);
    }
    g.dispose();
    return image;
  }

  static Operation encode(String mediaType, int quality) {
    return new Operation(ImageRecipe.ENCODE, Map.of("mediaType", mediaType, "quality", quality));
  }

  /** An image step from {@code input} to {@code output} applying {@code operations}. */
  static StepMessage step(String name, ObjectRef input, ObjectRef output, Operation... operations) {
    String mediaType = MediaTypes.IMAGE_JPEG;
    for (Operation op : operations) {
      if (op.operation().equals(ImageRecipe.ENCODE)) {
        mediaType = op.stringParam("mediaType", mediaType);
      }
    }
    String jobId = String.format("%064x", new java.math.BigInteger(1, name.getBytes()));
    return new StepMessage(
        jobId.substring(jobId.length() - 64),
        0,
        1,
        DECLARATION.name(),
        new ArrayList<>(List.of(operations)),
        input,
        MediaTypes.IMAGE_JPEG,
        output,
        mediaType,
        "trace-" + name);
  }

  /** {@code step} bound to the image declaration, as the worker runtime binds it. */
  static DeclaredStep declared(StepMessage step) {
    return DeclaredStep.bind(DECLARATION, step);
  }

  static StepMessage step(Operation... operations) {
    return step("unit", ObjectRef.of("in", "in"), ObjectRef.of("out", "out"), operations);
  }
}
