package dev.derive.coordinator.progress;

import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;

class SnapStartPrimingTest {

  @Test
  void primingRoundTripsAStepAndItsResultThroughTheCodecWithoutAws() {
    assertThatCode(SnapStartPriming::prime).doesNotThrowAnyException();
  }
}
