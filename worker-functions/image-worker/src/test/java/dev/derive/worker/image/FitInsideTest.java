package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Dimension;
import org.junit.jupiter.api.Test;

class FitInsideTest {

  @Test
  void landscapeIsBoundByTheWidth() {
    assertThat(new FitInside(256, 256, true).apply(1800, 1200)).isEqualTo(new Dimension(256, 171));
  }

  @Test
  void portraitIsBoundByTheHeight() {
    assertThat(new FitInside(256, 256, true).apply(1200, 1800)).isEqualTo(new Dimension(171, 256));
  }

  @Test
  void resultStaysInsideANonSquareBox() {
    Dimension size = new FitInside(300, 100, true).apply(1000, 500);
    assertThat(size).isEqualTo(new Dimension(200, 100));
  }

  @Test
  void neverEnlargesAnImageAlreadyInsideTheBox() {
    assertThat(new FitInside(256, 256, true).apply(100, 50)).isEqualTo(new Dimension(100, 50));
  }

  @Test
  void enlargesWhenAllowed() {
    assertThat(new FitInside(256, 256, false).apply(100, 50)).isEqualTo(new Dimension(256, 128));
  }

  @Test
  void aMissingSideDoesNotConstrain() {
    assertThat(new FitInside(100, null, true).apply(1000, 3000)).isEqualTo(new Dimension(100, 300));
    assertThat(new FitInside(null, 100, true).apply(3000, 1000)).isEqualTo(new Dimension(300, 100));
  }

  @Test
  void extremeAspectRatioKeepsAtLeastOnePixel() {
    assertThat(new FitInside(10, 10, true).apply(10_000, 1)).isEqualTo(new Dimension(10, 1));
  }
}
