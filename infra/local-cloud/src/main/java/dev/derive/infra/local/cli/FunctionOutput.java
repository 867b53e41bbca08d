package dev.derive.infra.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Where {@code ./derive up} sends every line of the local cloud and its functions: appended as it
 * came to the function log ({@code ./derive logs JOB} reads it), and printed to the terminal, each
 * JSON log line in the short form of {@link LogLines#pretty} when standard output is a terminal (as
 * it came otherwise, so pipes get the JSON). EMF documents are not printed on a terminal but
 * counted: {@link #metricsSummary()} lists each metric series seen with its count, sum, minimum and
 * maximum, which {@code up} prints when it stops (Ctrl-C).
 */
public final class FunctionOutput implements Consumer<String>, AutoCloseable {
  private final PrintStream terminal;
  private final boolean pretty;
  private final BufferedWriter file;
  private final Map<String, double[]> series = new TreeMap<>();

  /**
   * @param terminal where lines are printed
   * @param pretty whether to print the short form (a terminal) or the lines as they came
   * @param functionLog the file appended to, or {@code null} for none
   */
  public FunctionOutput(PrintStream terminal, boolean pretty, Path functionLog) {
    this.terminal = terminal;
    this.pretty = pretty;
    try {
      if (functionLog != null) {
        Files.createDirectories(functionLog.toAbsolutePath().getParent());
      }
      this.file =
          functionLog == null
              ? null
              : Files.newBufferedWriter(
                  functionLog,
                  StandardCharsets.UTF_8,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.TRUNCATE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the function log " + functionLog, e);
    }
  }

  @Override
  public void accept(String line) {
    synchronized (this) {
      if (file != null) {
        try {
          file.write(line);
          file.newLine();
          file.flush();
        } catch (IOException e) {
          // the terminal still gets the line
        }
      }
    }
    String function = null;
    String text = line;
    if (line.startsWith("[")) {
      int close = line.indexOf("] ");
      if (close > 0) {
        function = line.substring(1, close);
        text = line.substring(close + 2);
      }
    }
    if (function != null && LogLines.isMetrics(text)) {
      count(text);
      if (pretty) {
        return;
      }
    }
    terminal.println(pretty && function != null ? LogLines.pretty(function, text) : line);
  }

  private void count(String text) {
    JsonNode document = LogLines.parse(text);
    if (document == null) {
      return;
    }
    for (JsonNode directive : document.path("_aws").path("CloudWatchMetrics")) {
      StringBuilder dimensions = new StringBuilder();
      for (JsonNode dimension : directive.path("Dimensions").path(0)) {
        dimensions.append(' ').append(dimension.asText()).append('=');
        dimensions.append(document.path(dimension.asText()).asText());
      }
      for (JsonNode metric : directive.path("Metrics")) {
        String name = metric.path("Name").asText();
        double value = document.path(name).asDouble();
        String key = name + " [" + metric.path("Unit").asText() + "]" + dimensions;
        synchronized (series) {
          double[] s =
              series.computeIfAbsent(
                  key, k -> new double[] {0, 0, Double.MAX_VALUE, -Double.MAX_VALUE});
          s[0]++;
          s[1] += value;
          s[2] = Math.min(s[2], value);
          s[3] = Math.max(s[3], value);
        }
      }
    }
  }

  /** One line per metric series seen: name, unit, dimensions, count, sum, min, max. */
  public String metricsSummary() {
    StringBuilder b = new StringBuilder("metrics seen (EMF, namespace Derive):");
    synchronized (series) {
      if (series.isEmpty()) {
        return b.append(" none").toString();
      }
      series.forEach(
          (key, s) ->
              b.append(System.lineSeparator())
                  .append(
                      String.format(
                          "  %-60s n=%-5d sum=%-10s min=%-8s max=%s",
                          key, (long) s[0], number(s[1]), number(s[2]), number(s[3]))));
    }
    return b.toString();
  }

  private static String number(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : String.format("%.1f", value);
  }

  @Override
  public synchronized void close() {
    if (file != null) {
      try {
        file.close();
      } catch (IOException e) {
        // nothing left to do
      }
    }
  }
}
