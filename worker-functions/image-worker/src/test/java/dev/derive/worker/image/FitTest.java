package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FitTest {

  /**
   * Scaled size and output size per mode, for a landscape (1800x1200) and a portrait (1200x1800)
   * source in a square (300x300) and a wide (600x200) box; expected values worked out from sharp's
   * rules by hand.
   */
  @ParameterizedTest(name = "{0} {1}x{2} in {3}x{4} -> scaled {5}x{6}, output {7}x{8}")
  @CsvSource({
    // fit,    source,     box,      scaled,   output
    "cover,   1800, 1200, 300, 300, 450, 300, 300, 300",
    "contain, 1800, 1200, 300, 300, 300, 200, 300, 300",
    "fill,    1800, 1200, 300, 300, 300, 300, 300, 300",
    "inside,  1800, 1200, 300, 300, 300, 200, 300, 200",
    "outside, 1800, 1200, 300, 300, 450, 300, 450, 300",
    "cover,   1800, 1200, 600, 200, 600, 400, 600, 200",
    "contain, 1800, 1200, 600, 200, 300, 200, 600, 200",
    "fill,    1800, 1200, 600, 200, 600, 200, 600, 200",
    "inside,  1800, 1200, 600, 200, 300, 200, 300, 200",
    "outside, 1800, 1200, 600, 200, 600, 400, 600, 400",
    "cover,   1200, 1800, 300, 300, 300, 450, 300, 300",
    "contain, 1200, 1800, 300, 300, 200, 300, 300, 300",
    "fill,    1200, 1800, 300, 300, 300, 300, 300, 300",
    "inside,  1200, 1800, 300, 300, 200, 300, 200, 300",
    "outside, 1200, 1800, 300, 300, 300, 450, 300, 450",
    "cover,   1200, 1800, 600, 200, 600, 900, 600, 200",
    "contain, 1200, 1800, 600, 200, 133, 200, 600, 200",
    "fill,    1200, 1800, 600, 200, 600, 200, 600, 200",
    "inside,  1200, 1800, 600, 200, 133, 200, 133, 200",
    "outside, 1200, 1800, 600, 200, 600, 900, 600, 900",
  })
  void downscalesALargeSource(
      String fit,
      int sourceWidth,
      int sourceHeight,
      int boxWidth,
      int boxHeight,
      int scaledWidth,
      int scaledHeight,
      int width,
      int height) {
    for (boolean withoutEnlargement : new boolean[] {true, false}) {
      assertThat(
              Fit.named(fit)
                  .orElseThrow()
                  .place(sourceWidth, sourceHeight, boxWidth, boxHeight, withoutEnlargement))
          .as("withoutEnlargement=%s", withoutEnlargement)
          .isEqualTo(new Placement(scaledWidth, scaledHeight, width, height));
    }
  }

  /**
   * A small landscape (120x80) and portrait (80x120) source: with {@code withoutEnlargement} no
   * side grows, so only {@code contain} reaches the box (by padding); cover and fill stay smaller
   * than the box, as in sharp.
   */
  @ParameterizedTest(
      name = "{0} {1}x{2} in {3}x{4} withoutEnlargement -> scaled {5}x{6}, output {7}x{8}")
  @CsvSource({
    "cover,   120, 80, 300, 300, 120, 80, 120, 80",
    "contain, 120, 80, 300, 300, 120, 80, 300, 300",
    "fill,    120, 80, 300, 300, 120, 80, 120, 80",
    "inside,  120, 80, 300, 300, 120, 80, 120, 80",
    "outside, 120, 80, 300, 300, 120, 80, 120, 80",
    "cover,   80, 120, 600, 200, 80, 120, 80, 120",
    "contain, 80, 120, 600, 200, 80, 120, 600, 200",
    "fill,    80, 120, 600, 200, 80, 120, 80, 120",
    "inside,  80, 120, 600, 200, 80, 120, 80, 120",
    "outside, 80, 120, 600, 200, 80, 120, 80, 120",
  })
  void neverEnlargesASmallSourceWithoutEnlargement(
      String fit,
      int sourceWidth,
      int sourceHeight,
      int boxWidth,
      int boxHeight,
      int scaledWidth,
      int scaledHeight,
      int width,
      int height) {
    assertThat(
            Fit.named(fit)
                .orElseThrow()
                .place(sourceWidth, sourceHeight, boxWidth, boxHeight, true))
        .isEqualTo(new Placement(scaledWidth, scaledHeight, width, height));
  }

  @ParameterizedTest(name = "{0} {1}x{2} in {3}x{4} enlarging -> scaled {5}x{6}, output {7}x{8}")
  @CsvSource({
    "cover,   120, 80, 300, 300, 450, 300, 300, 300",
    "contain, 120, 80, 300, 300, 300, 200, 300, 300",
    "fill,    120, 80, 300, 300, 300, 300, 300, 300",
    "inside,  120, 80, 300, 300, 300, 200, 300, 200",
    "outside, 120, 80, 300, 300, 450, 300, 450, 300",
    "cover,   80, 120, 600, 200, 600, 900, 600, 200",
    "contain, 80, 120, 600, 200, 133, 200, 600, 200",
    "fill,    80, 120, 600, 200, 600, 200, 600, 200",
    "inside,  80, 120, 600, 200, 133, 200, 133, 200",
    "outside, 80, 120, 600, 200, 600, 900, 600, 900",
  })
  void enlargesASmallSourceWhenAllowed(
      String fit,
      int sourceWidth,
      int sourceHeight,
      int boxWidth,
      int boxHeight,
      int scaledWidth,
      int scaledHeight,
      int width,
      int height) {
    assertThat(
            Fit.named(fit)
                .orElseThrow()
                .place(sourceWidth, sourceHeight, boxWidth, boxHeight, false))
        .isEqualTo(new Placement(scaledWidth, scaledHeight, width, height));
  }

  @Test
  void withoutEnlargementLimitsEachSideOnItsOwnForFill() {
    assertThat(Fit.FILL.place(1000, 100, 500, 500, true))
        .isEqualTo(new Placement(500, 100, 500, 100));
  }

  @Test
  void coverOfASourceSmallerOnOneSideCropsOnlyTheLargerSide() {
    assertThat(Fit.COVER.place(1000, 100, 500, 500, true))
        .isEqualTo(new Placement(1000, 100, 500, 100));
  }

  @Test
  void aMissingSideFollowsTheAspectRatioExceptForFill() {
    for (Fit fit : new Fit[] {Fit.COVER, Fit.CONTAIN, Fit.INSIDE, Fit.OUTSIDE}) {
      assertThat(fit.place(1800, 1200, 300, null, true))
          .as(fit.value())
          .isEqualTo(new Placement(300, 200, 300, 200));
      assertThat(fit.place(1800, 1200, null, 300, true))
          .as(fit.value())
          .isEqualTo(new Placement(450, 300, 450, 300));
    }
    assertThat(Fit.FILL.place(1800, 1200, 300, null, true))
        .isEqualTo(new Placement(300, 1200, 300, 1200));
  }

  @Test
  void extremeAspectRatioKeepsAtLeastOnePixel() {
    assertThat(Fit.INSIDE.place(10_000, 1, 10, 10, true)).isEqualTo(new Placement(10, 1, 10, 1));
  }

  @Test
  void aHugeScaleSaturatesInsteadOfOverflowing() {
    Placement placement = Fit.OUTSIDE.place(100_000_000, 1, 16_384, 16_384, false);

    assertThat(placement.scaledWidth()).isEqualTo(Integer.MAX_VALUE);
    assertThat(placement.scaledHeight()).isEqualTo(16_384);
  }

  @Test
  void aBoxNeedsASide() {
    assertThatThrownBy(() -> Fit.INSIDE.place(10, 10, null, null, true))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theModesAreTheOnesTheCapabilityDeclares() {
    assertThat(Arrays.stream(Fit.values()).map(Fit::value))
        .containsExactlyElementsOf(
            TestImages.DECLARATION
                .operation(ImageRecipe.RESIZE)
                .orElseThrow()
                .parameter("fit")
                .orElseThrow()
                .allowedValues());
    assertThat(Fit.named("scale-down")).isEmpty();
  }
}
