package dev.derive.worker.markup;

import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;

class SnapStartPrimingTest {

  @Test
  void primingRunsTheProbeWithoutAws() {
    assertThatCode(
            () ->
                SnapStartPriming.prime(
                    new MarkupTransformer(MarkupTransformer.DEFAULT_MAX_OUTPUT_BYTES)))
        .doesNotThrowAnyException();
  }
}
