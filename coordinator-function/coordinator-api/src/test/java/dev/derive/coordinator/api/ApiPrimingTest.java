package dev.derive.coordinator.api;

import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ApiPrimingTest {

  @Test
  void primingRunsTheSampleRequestThroughJacksonAndTheValidatorWithoutAws() {
    assertThatCode(() -> ApiPriming.prime(new ObjectMapper())).doesNotThrowAnyException();
  }
}
