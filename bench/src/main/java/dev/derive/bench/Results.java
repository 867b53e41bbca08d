package dev.derive.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rows of one bench run, printed as one table and written as {@code latest.json}: {@code
 * {"machine":{cores, memory_mb, jdk, date, …, notes}, "rows":{id:{value, unit, anchor,
 * anchor_value, ratio, goal}}}} ({@code goal} only where the row has one).
 */
public final class Results {
  private final Map<String, Row> rows = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();
  private final Instant started = Instant.now();

  /** Adds (or replaces) {@code row} and echoes it as it is measured. */
  public synchronized void add(Row row) {
    rows.put(row.id(), row);
    System.out.println("bench: " + line(row));
  }

  /** Adds a free-text note to the machine description (load, what was skipped …). */
  public synchronized void note(String note) {
    notes.add(note);
  }

  /** The rows so far, by id. */
  public synchronized Map<String, Row> rows() {
    return new LinkedHashMap<>(rows);
  }

  /** Prints the table: id, value, anchor, anchor value, ratio, goal, then each row's note. */
  public synchronized void print(PrintStream out) {
    String format = "%-28s %14s  %-52s %14s %8s %6s%n";
    out.printf(format, "row", "value", "anchor (same run)", "anchor value", "ratio", "goal");
    out.println("-".repeat(127));
    for (Row row : rows.values()) {
      out.printf(
          format,
          row.id(),
          number(row.value(), row.unit()),
          shorten(row.anchor(), 52),
          number(row.anchorValue(), row.unit()),
          row.ratio() == null ? "-" : String.format(Locale.ROOT, "%.2f", row.ratio()),
          row.goal() == null ? "" : "≤" + trim(row.goal()));
    }
    out.println();
    for (Row row : rows.values()) {
      if (row.note() != null && !row.note().isBlank()) {
        out.println("  " + row.id() + ": " + row.note());
      }
    }
    for (String note : notes) {
      out.println("  note: " + note);
    }
  }

  /** Writes the JSON to {@code file}, creating its folder. */
  public synchronized void write(Path file, boolean smoke) throws IOException {
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    ObjectNode root = json.createObjectNode();
    ObjectNode machine = root.putObject("machine");
    machine.put("cores", Runtime.getRuntime().availableProcessors());
    machine.put("memory_mb", totalMemoryMb());
    machine.put(
        "jdk", System.getProperty("java.vendor") + " " + System.getProperty("java.version"));
    machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
    machine.put("date", started.truncatedTo(ChronoUnit.SECONDS).toString());
    machine.put("mode", smoke ? "smoke" : "full");
    machine.put("load_average_at_start", loadAverage());
    ArrayNode noteArray = machine.putArray("notes");
    notes.forEach(noteArray::add);
    rows.values().stream()
        .filter(r -> r.note() != null && !r.note().isBlank())
        .forEach(r -> noteArray.add(r.id() + ": " + r.note()));
    ObjectNode rowsNode = root.putObject("rows");
    for (Row row : rows.values()) {
      ObjectNode node = rowsNode.putObject(row.id());
      putNumber(node, "value", row.value());
      node.put("unit", row.unit());
      node.put("anchor", row.anchor());
      putNumber(node, "anchor_value", row.anchorValue());
      putNumber(node, "ratio", row.ratio());
      if (row.goal() != null) {
        node.put("goal", row.goal());
      }
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    json.writeValue(file.toFile(), root);
  }

  private static void putNumber(ObjectNode node, String name, Double value) {
    if (value == null || value.isNaN()) {
      node.putNull(name);
    } else {
      node.put(name, Math.round(value * 1000) / 1000.0);
    }
  }

  /** The machine's load average over the last minute, or -1 where unknown. */
  public static double loadAverage() {
    return Math.round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() * 100)
        / 100.0;
  }

  private static long totalMemoryMb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
    } catch (IOException | RuntimeException unknown) {
      // no procfs
    }
    return -1;
  }

  private static String line(Row row) {
    return row.id()
        + " = "
        + number(row.value(), row.unit())
        + " (anchor "
        + row.anchor()
        + " = "
        + number(row.anchorValue(), row.unit())
        + (row.ratio() == null ? "" : String.format(Locale.ROOT, ", ratio %.2f", row.ratio()))
        + ")";
  }

  private static String number(Double value, String unit) {
    if (value == null || value.isNaN()) {
      return "-";
    }
    String digits =
        Math.abs(value) >= 100
            ? String.format(Locale.ROOT, "%.0f", value)
            : String.format(Locale.ROOT, "%.2f", value);
    return digits + " " + abbreviate(unit);
  }

  private static String abbreviate(String unit) {
    return switch (unit) {
      case "executions/derivative" -> "ex/der";
      case "executions/s" -> "ex/s";
      default -> unit;
    };
  }

  private static String trim(double goal) {
    return goal == Math.rint(goal) ? Long.toString((long) goal) : Double.toString(goal);
  }

  private static String shorten(String text, int width) {
    return text.length() <= width ? text : text.substring(0, width - 1) + "…";
  }
}
