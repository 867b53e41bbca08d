package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.worker.runtime.PermanentStepFailure;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watermark (issue 29 part 2) measured on pixels: where the mark lands for a gravity and a
 * margin, how large for a scale, and how much of the picture shows through for an opacity.
 */
class WatermarkTest {
  private static final Color RED = new Color(200, 0, 0);
  private static final Color BLUE = new Color(0, 0, 200);

  @TempDir Path dir;

  /** A 20 x 10 opaque blue PNG. */
  private Path blueMark() throws IOException {
    Path mark = dir.resolve("mark.png");
    Files.write(mark, TestImages.encode(TestImages.bands(20, 10, BLUE), "png"));
    return mark;
  }

  private static BufferedImage redPicture() {
    return TestImages.bands(200, 100, RED);
  }

  @Test
  void aHalfOpaqueMarkSitsInTheCornerItsGravityNamesMarginPixelsIn() throws IOException {
    BufferedImage out = new Watermark(blueMark(), "southeast", 5, 50, 0).over(redPicture());

    assertThat(out.getWidth()).isEqualTo(200);
    assertThat(out.getHeight()).isEqualTo(100);
    assertThat(out.getColorModel().hasAlpha()).isFalse();
    // the mark covers x 175..194, y 85..94: half red, half blue
    for (int[] at : new int[][] {{175, 85}, {194, 94}, {185, 90}}) {
      Color c = new Color(out.getRGB(at[0], at[1]));
      assertThat(c.getRed()).as("red at %s", at[0] + "," + at[1]).isBetween(95, 105);
      assertThat(c.getBlue()).as("blue at %s", at[0] + "," + at[1]).isBetween(95, 105);
    }
    for (int[] at : new int[][] {{174, 90}, {195, 90}, {185, 84}, {185, 95}, {10, 10}}) {
      assertThat(new Color(out.getRGB(at[0], at[1]))).as("outside the mark").isEqualTo(RED);
    }
  }

  @Test
  void aScaledMarkIsThatShareOfThePictureWideAndAFullOpacityHidesThePicture() throws IOException {
    BufferedImage out = new Watermark(blueMark(), "northwest", 0, 100, 25).over(redPicture());

    // 25 % of 200 px: 50 x 25 px from the top left corner
    assertThat(new Color(out.getRGB(2, 2))).isEqualTo(BLUE);
    assertThat(new Color(out.getRGB(47, 22))).isEqualTo(BLUE);
    assertThat(new Color(out.getRGB(52, 10))).isEqualTo(RED);
    assertThat(new Color(out.getRGB(10, 27))).isEqualTo(RED);
  }

  @Test
  void aCentredMarkOnAPictureWithAlphaKeepsTheAlphaAndFadesWithItsOpacity() throws IOException {
    BufferedImage clear = new BufferedImage(200, 100, BufferedImage.TYPE_INT_ARGB);
    BufferedImage out = new Watermark(blueMark(), "centre", 0, 25, 0).over(clear);

    assertThat(out.getColorModel().hasAlpha()).isTrue();
    int centre = out.getRGB(100, 50);
    assertThat(centre >>> 24).as("alpha of a quarter-opaque mark over nothing").isBetween(60, 68);
    assertThat(centre & 0xff).as("its colour is the mark's").isBetween(195, 205);
    assertThat(out.getRGB(10, 10) >>> 24).isZero();
  }

  @Test
  void aMarkThatIsNoImageFailsTheStepWithAStableType() throws IOException {
    Path text = Files.writeString(dir.resolve("mark.png"), "not an image at all");

    assertThatThrownBy(() -> new Watermark(text, "centre", 0, 50, 0).over(redPicture()))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class, e -> assertThat(e.type()).isEqualTo(Watermark.UNREADABLE))
        .hasMessageContaining("the watermark is not an image");
  }
}
