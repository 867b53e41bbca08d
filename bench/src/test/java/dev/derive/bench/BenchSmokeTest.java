package dev.derive.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bench's harness works: a smoke run of the in-process rows (the local cloud's rows are proven
 * by {@code ./derive bench --smoke}, which needs a minute or more of function start-up) writes the
 * JSON in the issue's shape. Numbers are never asserted: the machine is shared and noisy.
 */
class BenchSmokeTest {

  @Test
  void smokeRunWritesEveryInProcessRowInTheIssuesShape() throws Exception {
    Path root = Path.of(System.getProperty("derive.root", "..")).toAbsolutePath().normalize();
    Path output = root.resolve("bench/target/smoke-test.json");

    int status = BenchMain.run(root, Scale.smokeRun(), true, false, Map.of(), output);

    assertThat(status).isZero();
    JsonNode json = new ObjectMapper().readTree(output.toFile());
    assertThat(json.path("machine").path("cores").asInt()).isPositive();
    assertThat(json.path("machine").has("jdk")).isTrue();
    assertThat(json.path("machine").has("date")).isTrue();
    for (String id :
        new String[] {
          "cache_hit",
          "cache_miss",
          "thumbnail_12mp",
          "thumbnail_12mp_vs_sharp",
          "smartcrop",
          "smartcrop_vs_sharp",
          "thumbnail_24mp",
          "animated_gif",
          "info",
          "watermark",
          "pdf_page",
          "text_pdf",
          "office_pdf"
        }) {
      JsonNode row = json.path("rows").path(id);
      assertThat(row.isObject()).as(id).isTrue();
      assertThat(row.has("value")).as(id).isTrue();
      assertThat(row.has("unit")).as(id).isTrue();
      assertThat(row.has("anchor")).as(id).isTrue();
      assertThat(row.has("anchor_value")).as(id).isTrue();
      assertThat(row.has("ratio")).as(id).isTrue();
    }
    assertThat(json.path("rows").path("cache_hit").path("value").isNumber()).isTrue();
    assertThat(json.path("rows").path("cache_hit").path("goal").asDouble()).isEqualTo(1.2);
  }
}
