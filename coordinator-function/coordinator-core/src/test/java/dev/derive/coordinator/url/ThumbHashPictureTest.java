package dev.derive.coordinator.url;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.Base64;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ThumbHash placeholders decode to the reference's pixels: the hashes and the expected pixels are
 * npm {@code thumbhash} 0.1.1's ({@code rgbaToThumbHash} of a 40 x 20 picture red left and blue
 * right, and of a 20 x 30 green one opaque above and clear below; {@code thumbHashToRGBA} of each,
 * its size and its top-left, top-right, middle and bottom-right pixels), and the PNG written of
 * them decodes (ImageIO) to the same pixels.
 */
class ThumbHashPictureTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "FfYC9Kh4j02Ch4h3iJePePiIiA== | 32 | 18 | 255,0,0,255 | 0,15,255,255 | 89,1,163,255 | 0,0,255,255",
        "ywmBAwBYeH93aJhof3cJiHh4j4iIWIg= | 19 | 32 | 2,127,4,255 | 2,127,4,205 | 2,127,4,131 | 2,127,4,22",
      })
  void decodesToTheReferencePixels(
      String hash,
      int width,
      int height,
      String topLeft,
      String topRight,
      String middle,
      String bottomRight)
      throws Exception {
    ThumbHashPicture picture = ThumbHashPicture.decode(Base64.getDecoder().decode(hash));

    assertThat(picture.width()).isEqualTo(width);
    assertThat(picture.height()).isEqualTo(height);
    int[] at = {0, width - 1, (height / 2) * width + width / 2, width * height - 1};
    String[] expected = {topLeft, topRight, middle, bottomRight};
    BufferedImage png =
        ImageIO.read(
            new ByteArrayInputStream(
                PngPicture.encode(picture.width(), picture.height(), picture.rgba())));
    for (int i = 0; i < at.length; i++) {
      int[] want =
          java.util.Arrays.stream(expected[i].split(",")).mapToInt(Integer::parseInt).toArray();
      for (int band = 0; band < 4; band++) {
        // the reference's Math.cos may differ from Java's in the last bit, and it truncates
        assertThat(picture.rgba()[at[i] * 4 + band] & 0xFF)
            .as("pixel %d band %d", at[i], band)
            .isBetween(want[band] - 1, want[band] + 1);
      }
      int argb = png.getRGB(at[i] % width, at[i] / width);
      int[] read = {argb >> 16 & 0xFF, argb >> 8 & 0xFF, argb & 0xFF, argb >>> 24};
      for (int band = 0; band < 4; band++) {
        assertThat(read[band])
            .as("PNG pixel %d band %d", at[i], band)
            .isEqualTo(picture.rgba()[at[i] * 4 + band] & 0xFF);
      }
    }
  }

  @Test
  void aTruncatedHashIsRefused() {
    byte[] hash = Base64.getDecoder().decode("FfYC9Kh4j02Ch4h3iJePePiIiA==");

    assertThatThrownBy(() -> ThumbHashPicture.decode(java.util.Arrays.copyOf(hash, 8)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ThumbHashPicture.decode(new byte[3]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
