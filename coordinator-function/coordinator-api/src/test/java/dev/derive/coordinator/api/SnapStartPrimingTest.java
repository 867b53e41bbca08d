package dev.derive.coordinator.api;

import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class SnapStartPrimingTest {

  @Test
  void primingRunsTheSampleRequestThroughJacksonAndTheValidatorWithoutAws() {
    assertThatCode(() -> SnapStartPriming.prime(new ObjectMapper())).doesNotThrowAnyException();
  }
}
