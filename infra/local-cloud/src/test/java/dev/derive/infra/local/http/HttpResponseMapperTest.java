package dev.derive.infra.local.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.infra.local.lambda.FunctionPool;
import dev.derive.infra.local.lambda.InvocationResult;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How API Gateway answers each kind of failed invocation. */
class HttpResponseMapperTest {

  @Test
  void aTimedOutInvocationIsAFunctionErrorAnd500() {
    HttpResponse response =
        HttpResponseMapper.response(
            InvocationResult.Failure.of("Sandbox.Timedout", "Task timed out after 3.00 seconds"));

    assertThat(response.status()).isEqualTo(500);
    assertThat(text(response)).isEqualTo("{\"message\":\"Internal Server Error\"}");
  }

  @Test
  void aTooLargeResponseIs502AndATooLargeEvent413() {
    HttpResponse response =
        HttpResponseMapper.response(
            InvocationResult.Failure.of(HttpResponseMapper.RESPONSE_TOO_LARGE, "too large"));
    HttpResponse request =
        HttpResponseMapper.response(
            InvocationResult.Failure.of(FunctionPool.REQUEST_TOO_LARGE, "too large"));

    assertThat(response.status()).isEqualTo(502);
    assertThat(request.status()).isEqualTo(413);
    assertThat(text(request)).isEqualTo("{\"message\":\"Request Entity Too Large\"}");
  }

  private static String text(HttpResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }
}
