package dev.derive.worker.image;

import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;

class SnapStartPrimingTest {

  @Test
  void primingDecodesResizesAndEncodesEveryOutputFormatWithoutAws() {
    assertThatCode(() -> SnapStartPriming.prime(new ImageTransformer(100_000_000)))
        .doesNotThrowAnyException();
  }
}
