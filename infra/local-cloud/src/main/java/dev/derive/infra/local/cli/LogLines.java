package dev.derive.infra.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;

/**
 * Reads the functions' log lines for a person: a JSON line ({@code quarkus-logging-json}: {@code
 * timestamp}, {@code level}, {@code loggerName}, {@code message}, {@code mdc}) becomes {@code
 * 12:03:04.120 INFO ImageWorkerFunction step succeeded job=0eb5… step=1 image outcome=succeeded 412
 * ms} (steps counted from 1); an EMF document a short list of its values; any other line
 * (START/END/REPORT, a JVM notice) stays as it is.
 */
public final class LogLines {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** MDC fields shown after the message, in this order, with their labels. */
  private static final List<String[]> SHOWN =
      List.of(
          new String[] {"jobId", "job="},
          new String[] {"stepIndex", "step="},
          new String[] {"capability", ""},
          new String[] {"outcome", "outcome="},
          new String[] {"errorType", "error="},
          new String[] {"durationMs", "ms="},
          new String[] {"traceId", "trace="});

  private LogLines() {}

  /**
   * One line as a person reads it.
   *
   * @param function the function's logical id
   * @param text what the function wrote
   */
  public static String pretty(String function, String text) {
    JsonNode line = parse(text);
    if (line == null) {
      return "[" + function + "] " + text;
    }
    if (line.has("_aws")) {
      StringBuilder b = new StringBuilder("[" + function + "] metrics");
      for (JsonNode directive : line.path("_aws").path("CloudWatchMetrics")) {
        for (JsonNode metric : directive.path("Metrics")) {
          String name = metric.path("Name").asText();
          b.append(' ').append(name).append('=').append(line.path(name).asText());
        }
      }
      return b.toString();
    }
    String time = line.path("timestamp").asText();
    int t = time.indexOf('T');
    String clock = t < 0 ? time : time.substring(t + 1, Math.min(time.length(), t + 13));
    StringBuilder b =
        new StringBuilder()
            .append(clock)
            .append(' ')
            .append(String.format("%-5s", line.path("level").asText()))
            .append(' ')
            .append(function)
            .append(' ')
            .append(line.path("message").asText());
    JsonNode mdc = line.path("mdc");
    for (String[] field : SHOWN) {
      JsonNode value = mdc.get(field[0]);
      if (value != null && !value.isNull() && !value.asText().isEmpty()) {
        String v = value.asText();
        b.append("  ")
            .append(field[1])
            .append(
                switch (field[0]) {
                  case "jobId" -> v.substring(0, Math.min(12, v.length()));
                  case "stepIndex" -> stepNumber(v);
                  default -> v;
                });
      }
    }
    if (line.hasNonNull("exception")) {
      b.append(System.lineSeparator()).append(line.path("exception").asText());
    }
    return b.toString();
  }

  /**
   * The step's number counted from 1, as the API's {@code error.step}, its details and {@code
   * ./derive derive} count, from the logs' 0-based {@code stepIndex}; as written if not a number.
   */
  private static String stepNumber(String stepIndex) {
    try {
      return Integer.toString(Integer.parseInt(stepIndex) + 1);
    } catch (NumberFormatException e) {
      return stepIndex;
    }
  }

  /** Whether {@code text} is an embedded-metric-format document. */
  public static boolean isMetrics(String text) {
    return text.startsWith("{\"_aws\"");
  }

  static JsonNode parse(String text) {
    if (!text.startsWith("{")) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(text);
      return node.isObject() ? node : null;
    } catch (java.io.IOException e) {
      return null;
    }
  }
}
