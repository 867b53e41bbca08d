package dev.derive.infra.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./derive logs JOB} on the local cloud's function log, which the functions' processes
 * append to as each flushes its output: a job's lines printed in the order they were written, each
 * with its time, metrics included (found by a newcomer's trial: EMF lines had no time and came out
 * of order).
 */
class LogsCommandTest {
  private static final String JOB = "ab".repeat(32);

  @TempDir Path dir;

  private static String json(String time, String message) {
    return "{\"timestamp\":\""
        + time
        + "\",\"level\":\"INFO\",\"loggerName\":\"x\",\"message\":\""
        + message
        + "\",\"mdc\":{\"jobId\":\""
        + JOB
        + "\"}}";
  }

  private static String emf(long epochMillis, String metric, int value) {
    return "{\"_aws\":{\"Timestamp\":"
        + epochMillis
        + ",\"CloudWatchMetrics\":[{\"Namespace\":\"Derive\",\"Dimensions\":[[]],\"Metrics\":"
        + "[{\"Name\":\""
        + metric
        + "\",\"Unit\":\"Milliseconds\"}]}]},\"jobId\":\""
        + JOB
        + "\",\""
        + metric
        + "\":"
        + value
        + "}";
  }

  private List<String> logs(String... lines) throws Exception {
    Path log = Files.write(dir.resolve("functions.log"), List.of(lines));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new LogsCommand(new OperatorTarget("derive-local", null, null, null, log))
        .print(JOB, Duration.ofHours(1), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void aMetricLineCarriesItsTime() throws Exception {
    // 2026-12-01T16:08:34.500Z
    assertThat(logs("[ImageWorkerFunction] " + emf(1_796_141_314_500L, "StepDuration", 412)))
        .containsExactly("16:08:34.500 METRIC ImageWorkerFunction StepDuration=412");
  }

  @Test
  void linesArePrintedInTheOrderTheyWereWrittenNotTheOrderTheyReachedTheLog() throws Exception {
    List<String> printed =
        logs(
            "[CoordinatorProgressFunction] " + json("2026-12-01T16:08:34.900Z", "job succeeded"),
            "[ImageWorkerFunction] " + json("2026-12-01T16:08:34.100Z", "step started"),
            "[ImageWorkerFunction] " + emf(1_796_141_314_500L, "StepDuration", 412),
            "[CoordinatorApiFunction] " + json("2026-12-01T16:08:34.010Z", "request starts job"));

    assertThat(printed)
        .hasSize(4)
        .satisfiesExactly(
            line -> assertThat(line).startsWith("16:08:34.010 INFO  CoordinatorApiFunction"),
            line -> assertThat(line).startsWith("16:08:34.100 INFO  ImageWorkerFunction"),
            line -> assertThat(line).startsWith("16:08:34.500 METRIC ImageWorkerFunction"),
            line -> assertThat(line).startsWith("16:08:34.900 INFO  CoordinatorProgressFunction"));
  }
}
