package dev.derive.worker.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.protocol.telemetry.Correlation;
import dev.derive.protocol.telemetry.EmbeddedMetrics;
import dev.derive.protocol.telemetry.Metric;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.MDC;

/**
 * The worker's telemetry of each SQS record: exactly one structured log line per record handled,
 * e.g. {@code {"event":"step","jobId":"…","stepIndex":"0","capability":"image","inputBytes":"1234",
 * "outputBytes":"567","durationMs":"89","outcome":"succeeded","errorType":null,...}}, with the
 * step's {@code executionId}, {@code traceId} and delivery {@code attempt}, and the step's
 * embedded-metric-format metrics ({@link Metric#STEPS}, {@link Metric#STEP_DURATION}, bytes, {@link
 * Metric#STEP_FAILURES}; {@link Metric#QUEUE_AGE} and {@link Metric#STEP_DELIVERIES} at pick-up).
 * The keys {@code event}, {@code jobId} and {@code outcome} are a stable contract: tests and log
 * queries count these lines to prove a step ran exactly once.
 *
 * <p>On a function the line goes through {@link System.Logger} (JBoss LogManager's JSON console
 * formatter writes its fields, the Lambda context and the correlation fields of {@link Correlation}
 * as one JSON object); a log built on a {@link PrintStream} writes the same fields as one JSON line
 * itself (tests, embedding).
 */
public final class StepLog {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final System.Logger LOG = System.getLogger(StepLog.class.getName());

  private final PrintStream out;
  private final EmbeddedMetrics metrics;

  /** A log through the logging framework, with its metrics on standard output (Lambda). */
  public StepLog() {
    this.out = null;
    this.metrics = EmbeddedMetrics.standardOutput();
  }

  /** A log writing each line to {@code out}, and no metrics. */
  public StepLog(PrintStream out) {
    this(out, new EmbeddedMetrics(line -> {}, java.time.Clock.systemUTC()));
  }

  /** A log writing each line to {@code out} and its metrics to {@code metrics}. */
  public StepLog(PrintStream out, EmbeddedMetrics metrics) {
    this.out = Objects.requireNonNull(out, "out");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * Records that a worker picked up a step message: its time in the queue and its delivery count.
   *
   * @param capability the step's capability
   * @param queueAgeMillis milliseconds from the message's send to now, or {@code null} if unknown
   * @param attempt the delivery ({@code ApproximateReceiveCount})
   */
  public void pickedUp(String capability, Long queueAgeMillis, int attempt) {
    metrics.write(
        EmbeddedMetrics.event()
            .value(Metric.QUEUE_AGE, queueAgeMillis)
            .value(Metric.STEP_DELIVERIES, attempt)
            .dimension(Metric.Dimension.CAPABILITY, capability));
  }

  /**
   * Writes one line and the step's metrics.
   *
   * @param entry what happened to the record
   */
  public void write(Entry entry) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("event", "step");
    line.put(Correlation.JOB_ID, entry.jobId());
    line.put(Correlation.STEP_INDEX, entry.stepIndex());
    line.put(Correlation.CAPABILITY, entry.capability());
    line.put("messageId", entry.messageId());
    line.put(Correlation.TRACE_ID, entry.traceId());
    line.put(Correlation.EXECUTION_ID, entry.executionId());
    line.put("attempt", entry.attempt());
    line.put("inputBytes", entry.inputBytes());
    line.put("outputBytes", entry.outputBytes());
    line.put("durationMs", entry.durationMs());
    line.put("outcome", entry.outcome().label());
    line.put("errorType", entry.errorType());
    line.put("detail", entry.detail());
    if (out == null) {
      logged(line, entry.outcome());
    } else {
      printed(line, entry.outcome());
    }
    writeMetrics(entry);
  }

  private void writeMetrics(Entry entry) {
    boolean failed = entry.outcome() == StepOutcome.FAILED || entry.outcome() == StepOutcome.RETRY;
    boolean ran = entry.outcome() != StepOutcome.RETRY || entry.inputBytes() != null;
    metrics.write(
        EmbeddedMetrics.event()
            .value(Metric.STEPS, 1)
            .value(Metric.STEP_DURATION, ran ? entry.durationMs() : null)
            .value(Metric.STEP_INPUT_BYTES, entry.inputBytes())
            .value(Metric.STEP_OUTPUT_BYTES, entry.outputBytes())
            .value(Metric.STEP_FAILURES, failed ? 1 : null)
            .dimension(Metric.Dimension.CAPABILITY, entry.capability())
            .dimension(Metric.Dimension.OUTCOME, entry.outcome().label())
            .dimension(Metric.Dimension.ERROR_TYPE, entry.errorType())
            .property("stepIndex", entry.stepIndex()));
  }

  /** Through the log: the fields ride in the MDC for this one line, then are restored. */
  private static void logged(Map<String, Object> line, StepOutcome outcome) {
    Map<String, Object> before = new LinkedHashMap<>();
    for (Map.Entry<String, Object> field : line.entrySet()) {
      before.put(field.getKey(), MDC.get(field.getKey()));
      if (field.getValue() == null) {
        MDC.remove(field.getKey());
      } else {
        MDC.put(field.getKey(), field.getValue().toString());
      }
    }
    try {
      String message = "step " + outcome.label();
      if (outcome == StepOutcome.SUCCEEDED || outcome == StepOutcome.REUSED) {
        LOG.log(System.Logger.Level.INFO, message);
      } else {
        LOG.log(System.Logger.Level.WARNING, message);
      }
    } finally {
      before.forEach(
          (key, value) -> {
            if (value == null) {
              MDC.remove(key);
            } else {
              MDC.put(key, value);
            }
          });
    }
  }

  private void printed(Map<String, Object> line, StepOutcome outcome) {
    String json;
    try {
      json = JSON.writeValueAsString(line);
    } catch (JsonProcessingException e) {
      json = "{\"event\":\"step\",\"outcome\":\"" + outcome.label() + "\"}";
    }
    synchronized (out) {
      out.println(json);
      out.flush();
    }
  }

  /**
   * One log line's content.
   *
   * @param messageId the SQS message id
   * @param jobId the job's fingerprint, or {@code null} when the message could not be decoded
   * @param stepIndex the step's index, or {@code null}
   * @param capability the step's capability, or {@code null}
   * @param traceId the step's trace id, or {@code null}
   * @param inputBytes bytes read from the input, or {@code null} if not read
   * @param outputBytes bytes of the output, or {@code null} if none
   * @param durationMs wall time spent on the record, in milliseconds
   * @param outcome how it ended
   * @param errorType a {@code StepErrorTypes} value for failures and for records handed back
   *     unstarted ({@code timeout} near the deadline, {@code worker-failed} on a process being
   *     replaced), an exception class name for other retries, else {@code null}
   * @param detail a short explanation for failures and retries, else {@code null}
   * @param executionId the step's execution, or {@code null}
   * @param attempt the delivery ({@code ApproximateReceiveCount}), or {@code null} if unknown
   */
  public record Entry(
      String messageId,
      String jobId,
      Integer stepIndex,
      String capability,
      String traceId,
      Long inputBytes,
      Long outputBytes,
      long durationMs,
      StepOutcome outcome,
      String errorType,
      String detail,
      String executionId,
      Integer attempt) {
    public Entry {
      Objects.requireNonNull(outcome, "outcome");
    }

    /**
     * The entry of a message that could not be decoded: it names no job, step, trace, execution or
     * attempt, and nothing was read or written.
     */
    public static Entry undecodable(
        String messageId, long durationMs, StepOutcome outcome, String errorType, String detail) {
      return new Entry(
          messageId,
          null,
          null,
          null,
          null,
          null,
          null,
          durationMs,
          outcome,
          errorType,
          detail,
          null,
          null);
    }
  }
}
