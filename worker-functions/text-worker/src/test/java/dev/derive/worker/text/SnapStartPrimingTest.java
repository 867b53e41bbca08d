package dev.derive.worker.text;

import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;

class SnapStartPrimingTest {

  @Test
  void primingRunsTheProbeWithoutAws() {
    assertThatCode(
            () ->
                SnapStartPriming.prime(new TextTransformer(TextTransformer.DEFAULT_MAX_TEXT_BYTES)))
        .doesNotThrowAnyException();
  }
}
