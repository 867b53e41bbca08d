package dev.derive.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What the entry point does to an event before Quarkus makes a request of it. */
class ApiEntryPointTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode rewritten(String event) throws Exception {
    return JSON.readTree(ApiEntryPoint.withUriPath(event.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aDecodedPathIsEncodedForTheUriAndKeptAsReceivedInHttpPath() throws Exception {
    JsonNode event =
        rewritten(
            "{\"rawPath\":\"/v1/s/w:1/a cat {1} 100%\\\"é.jpg\","
                + "\"requestContext\":{\"http\":{\"path\":\"/v1/s/w:1/a cat {1} 100%\\\"é.jpg\"}}}");

    assertThat(event.path("rawPath").asText())
        .isEqualTo("/v1/s/w:1/a%20cat%20%7B1%7D%20100%25%22%C3%A9.jpg");
    assertThat(event.path("requestContext").path("http").path("path").asText())
        .isEqualTo("/v1/s/w:1/a cat {1} 100%\"é.jpg");
  }

  @Test
  void anEventWithoutHttpPathGetsTheReceivedPathThere() throws Exception {
    JsonNode event = rewritten("{\"rawPath\":\"/v1/a b\",\"requestContext\":{}}");

    assertThat(event.path("rawPath").asText()).isEqualTo("/v1/a%20b");
    assertThat(event.path("requestContext").path("http").path("path").asText())
        .isEqualTo("/v1/a b");
  }

  @Test
  void aPathAUriHoldsAsItIsIsLeftAlone() throws Exception {
    String event =
        "{\"rawPath\":\"/v1/derivatives;x/ab:c@d/e.jpg\","
            + "\"requestContext\":{\"http\":{\"path\":\"/v1/derivatives;x/ab:c@d/e.jpg\"}}}";

    assertThat(ApiEntryPoint.withUriPath(event.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(event.getBytes(StandardCharsets.UTF_8));
  }
}
