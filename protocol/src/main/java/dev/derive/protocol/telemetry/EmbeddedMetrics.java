package dev.derive.protocol.telemetry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Writes CloudWatch embedded-metric-format (EMF) documents, one JSON line each, to standard output:
 * on Lambda, CloudWatch Logs turns every such line of the function's log group into metrics, with
 * no API call and no agent (CloudWatch "Specification: Embedded metric format"). One document holds
 * the values of one event (a step, a request), each metric under its own dimension set ({@link
 * Metric#dimensions()}); the correlation fields of the current thread ({@link Correlation}) ride
 * along as plain properties, so a metric's data point can be traced back to its job.
 */
public final class EmbeddedMetrics {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Written for a dimension the event has no value for, so the metric still lands. */
  static final String NO_VALUE = "none";

  private static final String[] CORRELATED = {
    Correlation.JOB_ID, Correlation.TRACE_ID, Correlation.EXECUTION_ID, Correlation.REQUEST_ID
  };

  private final Consumer<String> out;
  private final Clock clock;

  /**
   * @param out receives each document as one line of JSON
   * @param clock the documents' timestamp
   */
  public EmbeddedMetrics(Consumer<String> out, Clock clock) {
    this.out = Objects.requireNonNull(out, "out");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Metrics written to this process's standard output (CloudWatch Logs on Lambda). */
  public static EmbeddedMetrics standardOutput() {
    PrintStream stdout = System.out;
    return new EmbeddedMetrics(
        line -> {
          synchronized (stdout) {
            stdout.println(line);
            stdout.flush();
          }
        },
        Clock.systemUTC());
  }

  /** One event's metrics, written by {@link #write}. */
  public static Event event() {
    return new Event();
  }

  /**
   * Writes one document; an event without values writes nothing.
   *
   * @param event the values, dimension values and properties
   */
  public void write(Event event) {
    if (event.values.isEmpty()) {
      return;
    }
    out.accept(document(event));
  }

  String document(Event event) {
    Map<String, Object> root = new LinkedHashMap<>();
    List<Map<String, Object>> directives = new ArrayList<>();
    for (Map.Entry<Metric, Double> value : event.values.entrySet()) {
      Metric metric = value.getKey();
      Map<String, Object> definition = new LinkedHashMap<>();
      definition.put("Name", metric.metricName());
      definition.put("Unit", metric.unit().cloudWatchName());
      Map<String, Object> directive = new LinkedHashMap<>();
      directive.put("Namespace", Metric.NAMESPACE);
      directive.put("Dimensions", List.of(metric.dimensions()));
      directive.put("Metrics", List.of(definition));
      directives.add(directive);
      for (String dimension : metric.dimensions()) {
        root.putIfAbsent(dimension, event.dimensions.getOrDefault(dimension, NO_VALUE));
      }
    }
    Map<String, Object> aws = new LinkedHashMap<>();
    aws.put("Timestamp", clock.millis());
    aws.put("CloudWatchMetrics", directives);
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("_aws", aws);
    document.putAll(root);
    for (Map.Entry<Metric, Double> value : event.values.entrySet()) {
      document.put(value.getKey().metricName(), value.getValue());
    }
    for (String key : CORRELATED) {
      String correlated = Correlation.get(key);
      if (correlated != null) {
        document.putIfAbsent(key, correlated);
      }
    }
    event.properties.forEach(document::putIfAbsent);
    try {
      return JSON.writeValueAsString(document);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an EMF document of strings and numbers is always JSON", e);
    }
  }

  /** The values, dimension values and extra properties of one document. */
  public static final class Event {
    private final Map<Metric, Double> values = new LinkedHashMap<>();
    private final Map<String, String> dimensions = new LinkedHashMap<>();
    private final Map<String, Object> properties = new LinkedHashMap<>();

    private Event() {}

    /** Adds a value of {@code metric} (in its unit); a {@code null} value is left out. */
    public Event value(Metric metric, Number value) {
      if (value != null) {
        values.put(metric, value.doubleValue());
      }
      return this;
    }

    /** Sets a dimension's value ({@link Metric.Dimension}); {@code null} writes "none". */
    public Event dimension(String name, String value) {
      if (value != null) {
        dimensions.put(name, value);
      }
      return this;
    }

    /** Adds a property that is no dimension (searchable in the log, not a metric series). */
    public Event property(String name, Object value) {
      if (value != null) {
        properties.put(name, value);
      }
      return this;
    }
  }
}
