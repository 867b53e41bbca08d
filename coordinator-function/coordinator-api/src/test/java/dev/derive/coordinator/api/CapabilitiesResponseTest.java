package dev.derive.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.config.CoordinatorSettings;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CapabilitiesResponseTest {
  @Test
  void theCatalogueOfAllFourCapabilitiesStaysUnder8190Bytes() throws Exception {
    Map<String, String> env =
        Map.of(
            "JOBS_TABLE", "jobs",
            "SOURCE_BUCKET", "src",
            "DERIVATIVES_BUCKET", "der",
            "IMAGE_QUEUE_URL", "http://q/image",
            "PDF_QUEUE_URL", "http://q/pdf",
            "TEXT_QUEUE_URL", "http://q/text",
            "MARKUP_QUEUE_URL", "http://q/markup");
    CoordinatorSettings settings = CoordinatorSettings.from(n -> Optional.ofNullable(env.get(n)));

    String json =
        new ObjectMapper()
            .writeValueAsString(CapabilitiesResource.CapabilitiesResponse.of(settings, 4096));

    // quarkus#44551: a lambda-http response over 8190 bytes hangs the mock event server
    assertThat(json.length()).isLessThan(8190);
    assertThat(json).contains("\"name\":\"image\"", "\"name\":\"pdf\"");
  }
}
