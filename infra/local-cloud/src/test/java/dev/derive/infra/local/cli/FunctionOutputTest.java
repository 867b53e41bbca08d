package dev.derive.infra.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FunctionOutputTest {
  private static final String STEP_LINE =
      "[ImageWorkerFunction] {\"timestamp\":\"2026-12-01T16:08:34.229382724Z\",\"level\":\"INFO\","
          + "\"loggerName\":\"dev.derive.worker.runtime.StepLog\",\"message\":\"step succeeded\","
          + "\"mdc\":{\"jobId\":\"c62054747a0034c934c79aa0154e4586a25e058948281ed3e70ca8f123be85b4\","
          + "\"stepIndex\":\"2\",\"capability\":\"image\",\"outcome\":\"succeeded\",\"durationMs\":\"412\","
          + "\"traceId\":\"order-42\"}}";
  private static final String EMF_LINE =
      "[ImageWorkerFunction] {\"_aws\":{\"Timestamp\":1,\"CloudWatchMetrics\":[{\"Namespace\":"
          + "\"Derive\",\"Dimensions\":[[\"capability\"]],\"Metrics\":[{\"Name\":\"StepDuration\","
          + "\"Unit\":\"Milliseconds\"}]}]},\"capability\":\"image\",\"StepDuration\":%d}";

  private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();

  @Test
  void onATerminalAJsonLineIsShortAndEmfIsCountedNotPrinted(@TempDir Path folder) throws Exception {
    Path log = folder.resolve("functions.log");
    try (FunctionOutput output = output(true, log)) {
      output.accept(STEP_LINE);
      output.accept(String.format(EMF_LINE, 100));
      output.accept(String.format(EMF_LINE, 300));
      output.accept("[ImageWorkerFunction] START RequestId: 1 Version: $LATEST");

      String printed = terminal.toString(StandardCharsets.UTF_8);
      assertThat(printed)
          .contains(
              "16:08:34.229 INFO  ImageWorkerFunction step succeeded  job=c62054747a00  step=3"
                  + "  image  outcome=succeeded  ms=412  trace=order-42")
          .contains("[ImageWorkerFunction] START RequestId: 1")
          .doesNotContain("_aws");
      assertThat(output.metricsSummary())
          .contains("StepDuration [Milliseconds] capability=image")
          .contains("n=2")
          .contains("sum=400")
          .contains("min=100")
          .contains("max=300");
    }
    assertThat(Files.readAllLines(log)).hasSize(4).first().isEqualTo(STEP_LINE);
  }

  @Test
  void throughAPipeTheLinesStayAsTheyCame() throws Exception {
    try (FunctionOutput output = output(false, null)) {
      output.accept(STEP_LINE);
      output.accept(String.format(EMF_LINE, 5));
    }
    assertThat(terminal.toString(StandardCharsets.UTF_8).lines())
        .containsExactly(STEP_LINE, String.format(EMF_LINE, 5));
  }

  @Test
  void withoutMetricsTheSummarySaysSo() {
    try (FunctionOutput output = output(true, null)) {
      assertThat(output.metricsSummary()).endsWith("none");
    }
  }

  private FunctionOutput output(boolean pretty, Path log) {
    return new FunctionOutput(new PrintStream(terminal, true, StandardCharsets.UTF_8), pretty, log);
  }
}
