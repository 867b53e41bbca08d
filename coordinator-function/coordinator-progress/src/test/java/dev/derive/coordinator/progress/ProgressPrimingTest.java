package dev.derive.coordinator.progress;

import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;

class ProgressPrimingTest {

  @Test
  void primingRoundTripsAStepAndItsResultThroughTheCodecWithoutAws() {
    assertThatCode(ProgressPriming::prime).doesNotThrowAnyException();
  }
}
