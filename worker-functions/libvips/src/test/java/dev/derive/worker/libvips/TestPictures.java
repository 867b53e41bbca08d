package dev.derive.worker.libvips;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/** Images the binding tests make for themselves, written with the JDK's own encoders. */
final class TestPictures {
  private TestPictures() {}

  /** Red left half, blue right half; optionally the red half at alpha 128. */
  static BufferedImage halves(int width, int height, boolean alpha) {
    BufferedImage image =
        new BufferedImage(
            width, height, alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(alpha ? new Color(255, 0, 0, 128) : Color.RED);
    g.fillRect(0, 0, width / 2, height);
    g.setColor(Color.BLUE);
    g.fillRect(width / 2, 0, width - width / 2, height);
    g.dispose();
    return image;
  }

  /** A filled image of one colour. */
  static BufferedImage filled(int width, int height, Color colour) {
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(colour);
    g.fillRect(0, 0, width, height);
    g.dispose();
    return image;
  }

  /**
   * Writes {@code image} in {@code format} (an ImageIO format name) to a new file in {@code dir}.
   */
  static Path write(Path dir, BufferedImage image, String format) throws IOException {
    Path file = Files.createTempFile(dir, "vips-", "." + format);
    assertThat(ImageIO.write(image, format, file.toFile())).isTrue();
    return file;
  }

  /** A TIFF with one page per image (the JDK's TIFF writer). */
  static Path multipageTiff(Path dir, List<BufferedImage> pages) throws IOException {
    Path file = Files.createTempFile(dir, "pages-", ".tiff");
    ImageWriter writer = ImageIO.getImageWritersByFormatName("tiff").next();
    try (ImageOutputStream out = ImageIO.createImageOutputStream(file.toFile())) {
      writer.setOutput(out);
      writer.prepareWriteSequence(null);
      for (BufferedImage page : pages) {
        writer.writeToSequence(new IIOImage(page, null, null), null);
      }
      writer.endWriteSequence();
    } finally {
      writer.dispose();
    }
    return file;
  }

  /** A JPEG of {@code image} carrying an EXIF orientation tag ({@link ExifBlocks}). */
  static Path jpegWithOrientation(Path dir, BufferedImage image, int orientation)
      throws IOException {
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    assertThat(ImageIO.write(image, "jpeg", plain)).isTrue();
    Path file = Files.createTempFile(dir, "oriented-", ".jpg");
    Files.write(file, ExifBlocks.inJpeg(plain.toByteArray(), ExifBlocks.orientation(orientation)));
    return file;
  }

  /** The samples of {@code image} interleaved R, G, B, A. */
  static byte[] rgba(BufferedImage image) {
    int width = image.getWidth();
    int height = image.getHeight();
    byte[] out = new byte[width * height * 4];
    int i = 0;
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        int argb = image.getRGB(x, y);
        out[i++] = (byte) (argb >>> 16);
        out[i++] = (byte) (argb >>> 8);
        out[i++] = (byte) argb;
        out[i++] = (byte) (argb >>> 24);
      }
    }
    return out;
  }

  /** The three samples at {@code offset} of band-interleaved 8-bit pixels, as ints. */
  static int[] rgb(byte[] pixels, int offset) {
    return new int[] {pixels[offset] & 0xFF, pixels[offset + 1] & 0xFF, pixels[offset + 2] & 0xFF};
  }
}
