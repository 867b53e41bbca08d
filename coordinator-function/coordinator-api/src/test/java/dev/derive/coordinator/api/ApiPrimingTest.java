package dev.derive.coordinator.api;

import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.validate.RequestValidator;
import org.junit.jupiter.api.Test;

class ApiPrimingTest {

  @Test
  void primingRunsTheSampleRequestThroughJacksonAndTheValidatorWithoutAws() {
    assertThatCode(
            () -> ApiPriming.prime(new ObjectMapper(), new RequestValidator(Declarations.ALL)))
        .doesNotThrowAnyException();
  }
}
