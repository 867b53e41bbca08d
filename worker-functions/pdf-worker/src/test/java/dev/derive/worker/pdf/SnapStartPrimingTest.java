package dev.derive.worker.pdf;

import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;

class SnapStartPrimingTest {

  @Test
  void primingRunsTheProbeWithoutAws() {
    assertThatCode(() -> SnapStartPriming.prime(new PdfTransformer(100_000_000)))
        .doesNotThrowAnyException();
  }
}
