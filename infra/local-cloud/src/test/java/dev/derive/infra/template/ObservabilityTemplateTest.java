package dev.derive.infra.template;

import static dev.derive.infra.template.TemplateModel.list;
import static dev.derive.infra.template.TemplateModel.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.local.template.Intrinsic;
import dev.derive.infra.local.template.Template;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The dashboard and the alarms on Derive's own metrics (issue 13): they name only metrics the
 * functions write (dev.derive.protocol.telemetry.Metric), the dashboard is valid JSON with the
 * widgets an operator needs, and every function gets its log level from one parameter.
 */
class ObservabilityTemplateTest {
  /** Every metric name Derive writes, as dev.derive.protocol.telemetry.Metric names them. */
  private static final Set<String> METRIC_NAMES =
      Set.of(
          "Requests",
          "RejectedRequests",
          "Steps",
          "StepDuration",
          "StepInputBytes",
          "StepOutputBytes",
          "StepFailures",
          "StepDeliveries",
          "QueueAge",
          "JobDuration",
          "DeadLetteredSteps");

  private final Template template = new TemplateModel().template;

  @Test
  void theDashboardIsJsonAndShowsRequestsHitRatioStepPercentilesFailuresDlqsAndThrottles()
      throws Exception {
    Object body = template.resource("OperationsDashboard").properties().get("DashboardBody");
    assertThat(body).isInstanceOf(Intrinsic.Sub.class);
    String json = ((Intrinsic.Sub) body).template().replaceAll("\\$\\{[^}]+}", "x");
    JsonNode dashboard = new ObjectMapper().readTree(json);

    List<String> titles = new java.util.ArrayList<>();
    dashboard.path("widgets").forEach(w -> titles.add(w.path("properties").path("title").asText()));
    assertThat(String.join("|", titles))
        .contains("requests by outcome", "hit ratio", "p50 / p99", "failures", "Dead-letter")
        .contains("throttles");
    Set<String> named = new HashSet<>();
    Matcher m = Pattern.compile("\\[\"Derive\", \"([A-Za-z]+)\"").matcher(json);
    while (m.find()) {
      named.add(m.group(1));
    }
    // per-capability metrics are searched by their capability dimension, so a new capability's
    // series appear without a line of their own
    Matcher searched =
        Pattern.compile("SEARCH\\('\\{Derive,[a-zA-Z,]+} MetricName=\\\\\"([A-Za-z]+)")
            .matcher(json);
    while (searched.find()) {
      named.add(searched.group(1));
    }
    assertThat(METRIC_NAMES).containsAll(named);
    assertThat(named).contains("Requests", "StepDuration", "QueueAge", "JobDuration");
    assertThat(json).contains("\"p50\"", "\"p99\"", "MetricName=\\\"StepFailures\\\"");
  }

  @Test
  void everyAlarmOnDeriveMetricsNamesAMetricTheFunctionsWrite() {
    Set<String> alarmed = new HashSet<>();
    for (Template.Resource alarm : template.resourcesOfType("AWS::CloudWatch::Alarm")) {
      for (Object query : list(alarm.properties().get("Metrics"))) {
        Map<String, Object> stat = map(map(query).get("MetricStat"));
        Map<String, Object> metric = map(stat.get("Metric"));
        if ("Derive".equals(metric.get("Namespace"))) {
          alarmed.add(String.valueOf(metric.get("MetricName")));
        }
      }
    }
    assertThat(alarmed).containsExactlyInAnyOrder("Steps", "JobDuration");
    for (String capability : List.of("Image", "Pdf", "Text", "Markup")) {
      assertThat(template.resources()).containsKey(capability + "StepFailureRatioAlarm");
    }
    assertThat(template.resource("JobDurationP99Alarm").properties().get("Threshold"))
        .isEqualTo(new Intrinsic.Ref("JobDurationSloSeconds"));
  }

  @Test
  void everyFunctionTakesItsLogLevelFromTheLogLevelParameter() {
    Map<String, Object> globals = template.globalsFunction();
    assertThat(map(map(globals.get("Environment")).get("Variables")).get("LOG_LEVEL"))
        .isEqualTo(new Intrinsic.Ref("LogLevel"));
    assertThat(map(globals.get("LoggingConfig")).get("ApplicationLogLevel"))
        .isEqualTo(new Intrinsic.Ref("LogLevel"));
    assertThat(map(globals.get("LoggingConfig")).get("LogFormat")).isEqualTo("JSON");
  }
}
