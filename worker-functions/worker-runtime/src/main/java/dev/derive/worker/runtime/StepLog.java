package dev.derive.worker.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Writes exactly one structured JSON line per SQS record handled, e.g. {@code
 * {"event":"step","jobId":"…","stepIndex":0,"capability":"image","inputBytes":1234,
 * "outputBytes":567,"durationMs":89,"outcome":"succeeded","errorType":null,...}}, with the step's
 * {@code executionId} and delivery {@code attempt}. The keys {@code event}, {@code jobId} and
 * {@code outcome} are a stable contract: tests and log queries count these lines to prove a step
 * ran exactly once.
 */
public final class StepLog {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final PrintStream out;

  /** A log writing to standard output (CloudWatch Logs on Lambda). */
  public StepLog() {
    this(System.out);
  }

  /** A log writing to {@code out}. */
  public StepLog(PrintStream out) {
    this.out = Objects.requireNonNull(out, "out");
  }

  /**
   * Writes one line.
   *
   * @param entry what happened to the record
   */
  public void write(Entry entry) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("event", "step");
    line.put("jobId", entry.jobId());
    line.put("stepIndex", entry.stepIndex());
    line.put("capability", entry.capability());
    line.put("messageId", entry.messageId());
    line.put("traceId", entry.traceId());
    line.put("executionId", entry.executionId());
    line.put("attempt", entry.attempt());
    line.put("inputBytes", entry.inputBytes());
    line.put("outputBytes", entry.outputBytes());
    line.put("durationMs", entry.durationMs());
    line.put("outcome", entry.outcome().label());
    line.put("errorType", entry.errorType());
    line.put("detail", entry.detail());
    String json;
    try {
      json = JSON.writeValueAsString(line);
    } catch (JsonProcessingException e) {
      json = "{\"event\":\"step\",\"outcome\":\"" + entry.outcome().label() + "\"}";
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

    /** An entry without execution and attempt. */
    public Entry(
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
        String detail) {
      this(
          messageId,
          jobId,
          stepIndex,
          capability,
          traceId,
          inputBytes,
          outputBytes,
          durationMs,
          outcome,
          errorType,
          detail,
          null,
          null);
    }
  }
}
