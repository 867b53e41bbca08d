package dev.derive.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.config.CoordinatorConfigs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The body of {@code GET /v1/capabilities}. Checked here on the response object rather than over
 * Quarkus's mock event server, which hangs on lambda-http responses over 8190 bytes
 * (quarkus#44551); the end-to-end suite fetches it through the real Lambda runtime path.
 */
class CapabilitiesResponseTest {
  private final ObjectMapper json = new ObjectMapper();

  private JsonNode catalogue() throws Exception {
    Map<String, String> env =
        Map.of(
            "JOBS_TABLE", "jobs",
            "SOURCE_BUCKET", "src",
            "DERIVATIVES_BUCKET", "der",
            "MAX_SOURCE_BYTES", "1000000",
            "IMAGE_QUEUE_URL", "http://q/image",
            "PDF_QUEUE_URL", "http://q/pdf",
            "TEXT_QUEUE_URL", "http://q/text",
            "MARKUP_QUEUE_URL", "http://q/markup",
            "CAPABILITY_DECLARATIONS", Declarations.LOCATION);
    Map<String, String> settings = new java.util.HashMap<>(env);
    settings.put("MAX_REQUEST_BYTES", "4096");
    return json.valueToTree(
        CapabilitiesResource.CapabilitiesResponse.of(
            CoordinatorConfigs.from(n -> Optional.ofNullable(settings.get(n))),
            CoordinatorConfigs.deployed(n -> Optional.ofNullable(settings.get(n)))));
  }

  private static List<String> names(JsonNode array, String field) {
    List<String> names = new ArrayList<>();
    array.forEach(n -> names.add(n.path(field).asText()));
    return names;
  }

  private static JsonNode named(JsonNode array, String name) {
    for (JsonNode n : array) {
      if (n.path("name").asText().equals(name)) {
        return n;
      }
    }
    throw new AssertionError("no " + name + " in " + array);
  }

  @Test
  void listsEveryCapabilityWithItsOperationsAndParameters() throws Exception {
    JsonNode capabilities = catalogue().path("capabilities");
    assertThat(names(capabilities, "name")).contains("image", "pdf", "text", "markup");
    JsonNode image = named(capabilities, "image");
    assertThat(names(image.path("operations"), "name"))
        .containsSubsequence(
            "page", "crop", "rotate", "resize", "flip", "flop", "greyscale", "encode")
        .endsWith("encode");
    JsonNode fit = named(named(image.path("operations"), "resize").path("parameters"), "fit");
    assertThat(fit.path("allowedValues").toString())
        .contains("cover", "contain", "fill", "inside", "outside");
    JsonNode render = named(named(capabilities, "pdf").path("operations"), "render");
    assertThat(render.path("consumes").toString()).contains("page", "dpi");
  }

  @Test
  void listsReachableTargetsTargetOptionsAndTheLimitsInForce() throws Exception {
    JsonNode catalogue = catalogue();
    JsonNode markdown = null;
    for (JsonNode c : catalogue.path("conversions")) {
      if (c.path("source").asText().equals("text/markdown")) {
        markdown = c;
      }
    }
    assertThat(markdown).isNotNull();
    assertThat(markdown.path("targets").toString()).contains("image/jpeg", "application/pdf");
    assertThat(names(catalogue.path("targetOptions"), "name"))
        .contains("width", "background", "dpi");
    assertThat(catalogue.path("limits").path("maxSourceBytes").asLong()).isEqualTo(1000000);
    assertThat(catalogue.path("limits").path("maxRequestBytes").asLong()).isEqualTo(4096);
    assertThat(catalogue.path("limits").path("maxWaitSeconds").asInt()).isEqualTo(25);
  }

  /** Issue 30 item 10: the default quality of each format is stated where clients read it. */
  @Test
  void theEncodersQualityListsItsDefaultPerFormat() throws Exception {
    JsonNode encode =
        named(named(catalogue().path("capabilities"), "image").path("operations"), "encode");
    JsonNode quality = named(encode.path("parameters"), "quality");

    assertThat(quality.path("defaultValue").asInt()).isEqualTo(85);
    assertThat(quality.path("outputDefaults").path("image/avif").asInt()).isEqualTo(70);
    assertThat(quality.path("outputDefaults").path("image/webp").asInt()).isEqualTo(85);
  }
}
