package dev.derive.protocol.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EmbeddedMetricsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final List<String> lines = new ArrayList<>();
  private final EmbeddedMetrics metrics =
      new EmbeddedMetrics(
          lines::add, Clock.fixed(Instant.ofEpochMilli(1_700_000_000_123L), ZoneOffset.UTC));

  @AfterEach
  void clearCorrelation() {
    Correlation.clearJob();
  }

  @Test
  void aStepEventIsOneEmfDocumentWithEachMetricUnderItsOwnDimensions() throws Exception {
    metrics.write(
        EmbeddedMetrics.event()
            .value(Metric.STEP_DURATION, 412)
            .value(Metric.STEP_FAILURES, 1)
            .dimension(Metric.Dimension.CAPABILITY, "image")
            .dimension(Metric.Dimension.ERROR_TYPE, "corrupt-input"));

    assertThat(lines).hasSize(1);
    JsonNode document = JSON.readTree(lines.get(0));
    JsonNode aws = document.path("_aws");
    assertThat(aws.path("Timestamp").asLong()).isEqualTo(1_700_000_000_123L);
    JsonNode directives = aws.path("CloudWatchMetrics");
    assertThat(directives).hasSize(2);
    assertThat(directives.get(0).path("Namespace").asText()).isEqualTo("Derive");
    assertThat(directives.get(0).path("Dimensions").toString()).isEqualTo("[[\"capability\"]]");
    assertThat(directives.get(0).path("Metrics").get(0).path("Name").asText())
        .isEqualTo("StepDuration");
    assertThat(directives.get(0).path("Metrics").get(0).path("Unit").asText())
        .isEqualTo("Milliseconds");
    assertThat(directives.get(1).path("Dimensions").toString())
        .isEqualTo("[[\"capability\",\"errorType\"]]");
    assertThat(document.path("StepDuration").asDouble()).isEqualTo(412.0);
    assertThat(document.path("StepFailures").asDouble()).isEqualTo(1.0);
    assertThat(document.path("capability").asText()).isEqualTo("image");
    assertThat(document.path("errorType").asText()).isEqualTo("corrupt-input");
  }

  @Test
  void everyDimensionAMetricNamesHasAValueEvenWhenTheEventHasNone() throws Exception {
    metrics.write(EmbeddedMetrics.event().value(Metric.REQUESTS, 1));

    JsonNode document = JSON.readTree(lines.get(0));
    assertThat(document.path("outcome").asText()).isEqualTo(EmbeddedMetrics.NO_VALUE);
  }

  @Test
  void theCorrelationFieldsOfTheThreadRideAlongAsProperties() throws Exception {
    Correlation.job("ab".repeat(32), 0, "pdf", "e-1", "client-trace");

    metrics.write(
        EmbeddedMetrics.event()
            .value(Metric.QUEUE_AGE, 30)
            .dimension(Metric.Dimension.CAPABILITY, "pdf")
            .property("attempt", 2));

    JsonNode document = JSON.readTree(lines.get(0));
    assertThat(document.path("jobId").asText()).isEqualTo("ab".repeat(32));
    assertThat(document.path("traceId").asText()).isEqualTo("client-trace");
    assertThat(document.path("executionId").asText()).isEqualTo("e-1");
    assertThat(document.path("attempt").asInt()).isEqualTo(2);
  }

  @Test
  void anEventWithoutValuesWritesNothing() {
    metrics.write(EmbeddedMetrics.event().dimension(Metric.Dimension.CAPABILITY, "image"));

    assertThat(lines).isEmpty();
  }

  @Test
  void settingTheJobKeepsTheXRayTraceHeaderTheRequestStartedWith() {
    Correlation.put(Correlation.XRAY_TRACE, "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1");

    Correlation.job("ef".repeat(32), null, null, null, "client");

    assertThat(Correlation.get(Correlation.XRAY_TRACE)).startsWith("Root=1-5759e988");
    assertThat(Correlation.get(Correlation.STEP_INDEX)).isNull();
    Correlation.clearJob();
    assertThat(Correlation.get(Correlation.XRAY_TRACE)).isNull();
  }

  @Test
  void aNewInvocationClearsTheJobFieldsThePreviousOneLeft() {
    Correlation.job("cd".repeat(32), 1, "text", null, "t");

    Correlation.invocation("request-2");

    assertThat(Correlation.get(Correlation.JOB_ID)).isNull();
    assertThat(Correlation.get(Correlation.TRACE_ID)).isNull();
    assertThat(Correlation.get(Correlation.REQUEST_ID)).isEqualTo("request-2");
    assertThat(Correlation.get(Correlation.COLD_START)).isIn("true", "false");
  }
}
