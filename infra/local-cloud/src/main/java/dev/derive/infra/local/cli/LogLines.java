package dev.derive.infra.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * Reads the functions' log lines for a person: a JSON line ({@code quarkus-logging-json}: {@code
 * timestamp}, {@code level}, {@code loggerName}, {@code message}, {@code mdc}) becomes {@code
 * 12:03:04.120 INFO ImageWorkerFunction step succeeded job=0eb5… step=1 image outcome=succeeded 412
 * ms} (steps counted from 1); an EMF document {@code 12:03:04.121 METRIC ImageWorkerFunction
 * StepDuration=412 …}, its time from {@code _aws.Timestamp}; any other line (START/END/REPORT, a
 * JVM notice) stays as it is. Times are UTC, as Lambda's are.
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
      StringBuilder b =
          new StringBuilder(time(line).map(LogLines::clock).orElse("--:--:--.---"))
              .append(" METRIC ")
              .append(function);
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
    String clock =
        time(line)
            .map(LogLines::clock)
            .orElse(t < 0 ? time : time.substring(t + 1, Math.min(time.length(), t + 13)));
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

  /**
   * When a function wrote {@code text}: a JSON line's {@code timestamp} (RFC 3339), an EMF
   * document's {@code _aws.Timestamp} (epoch milliseconds); empty for any other line.
   */
  public static Optional<Instant> time(String text) {
    JsonNode line = parse(text);
    return line == null ? Optional.empty() : time(line);
  }

  private static Optional<Instant> time(JsonNode line) {
    JsonNode emf = line.path("_aws").path("Timestamp");
    if (emf.canConvertToLong() && emf.isNumber()) {
      return Optional.of(Instant.ofEpochMilli(emf.asLong()));
    }
    try {
      return Optional.of(OffsetDateTime.parse(line.path("timestamp").asText()).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** {@code HH:mm:ss.SSS} of {@code time} in UTC. */
  private static String clock(Instant time) {
    return CLOCK.format(time);
  }

  private static final DateTimeFormatter CLOCK =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

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
