package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ImageFormat#sniff}: the format from the first bytes, whatever the file is called. */
class ImageFormatTest {
  @TempDir Path dir;

  @Test
  void namesEachFormatByItsBytes() throws IOException {
    var picture = TestImages.quadrants(40, 20);

    assertThat(sniff(TestImages.encode(picture, "jpg")))
        .isInstanceOfSatisfying(
            ImageFormat.Jpeg.class, j -> assertThat(j.frame().libvipsDecodes()).isTrue());
    assertThat(sniff(TestImages.encode(picture, "png")))
        .isEqualTo(new ImageFormat.Png(false, false));
    assertThat(sniff(TestImages.encode(picture, "tiff")))
        .isEqualTo(new ImageFormat.Tiff(false, false));
    assertThat(sniff(TestImages.encode(picture, "bmp")))
        .isInstanceOfSatisfying(
            ImageFormat.Bmp.class, b -> assertThat(b.size()).containsExactly(40, 20));
    assertThat(sniff(TestImages.encode(picture, "gif"))).isEqualTo(new ImageFormat.Other());
    assertThat(
            sniff(
                "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"
                    .getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(new ImageFormat.Svg());
    assertThat(sniff("RIFF\0\0\0\0WEBPVP8 ".getBytes(StandardCharsets.ISO_8859_1)))
        .isEqualTo(new ImageFormat.Webp());
    assertThat(sniff("plain text".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(new ImageFormat.Other());
  }

  @Test
  void tellsADamagedPngHeaderApart() throws IOException {
    byte[] png = TestImages.encode(TestImages.quadrants(8, 8), "png");
    png[20] ^= 1; // a bit of IHDR's height: its CRC no longer matches

    assertThat(sniff(png)).isEqualTo(new ImageFormat.Png(false, true));
  }

  private ImageFormat sniff(byte[] bytes) throws IOException {
    Path file = Files.createTempFile(dir, "in", ".bin");
    Files.write(file, bytes);
    return ImageFormat.sniff(file);
  }
}
