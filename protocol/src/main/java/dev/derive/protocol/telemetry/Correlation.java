package dev.derive.protocol.telemetry;

import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.MDC;

/**
 * The correlation fields of Derive's log lines, kept in the logging MDC of the current thread so
 * that every line written while a job is handled carries them (the JSON console formatter writes
 * the MDC as top-level fields). The keys are a stable contract: {@code ./derive logs JOB} and the
 * CloudWatch Logs Insights queries filter on {@value #JOB_ID}.
 */
public final class Correlation {
  /** The job's fingerprint. */
  public static final String JOB_ID = "jobId";

  /** The step's 0-based index in the job's plan. */
  public static final String STEP_INDEX = "stepIndex";

  /** The step's capability, e.g. {@code image}. */
  public static final String CAPABILITY = "capability";

  /** The execution of the job (a new one per claim). */
  public static final String EXECUTION_ID = "executionId";

  /** The id the client sent ({@code X-Request-Id}, {@code traceparent}, …) or one made for it. */
  public static final String TRACE_ID = "traceId";

  /** The X-Ray trace header the invocation runs under ({@code Root=…;Parent=…;Sampled=…}). */
  public static final String XRAY_TRACE = "xrayTrace";

  /** The Lambda request id of the invocation. */
  public static final String REQUEST_ID = "requestId";

  /** {@code true} on the first invocation of a function process. */
  public static final String COLD_START = "coldStart";

  private static final String[] JOB_KEYS = {
    JOB_ID, STEP_INDEX, CAPABILITY, EXECUTION_ID, TRACE_ID, XRAY_TRACE
  };

  private static final AtomicBoolean FIRST_INVOCATION = new AtomicBoolean(true);

  private Correlation() {}

  /**
   * Starts an invocation on this thread: sets {@value #REQUEST_ID} and {@value #COLD_START} (true
   * for the first invocation of the process only) and clears the job fields a previous invocation
   * may have left.
   *
   * @param requestId the Lambda request id, or {@code null} when unknown
   */
  public static void invocation(String requestId) {
    clearJob();
    put(REQUEST_ID, requestId);
    MDC.put(COLD_START, Boolean.toString(FIRST_INVOCATION.getAndSet(false)));
  }

  /**
   * Sets the job fields of this thread; a {@code null} argument leaves that field unset. The X-Ray
   * trace header set for the invocation or message stays.
   *
   * @param jobId the job's fingerprint
   * @param stepIndex the step's 0-based index, or {@code null} for the job as a whole
   * @param capability the step's capability
   * @param executionId the job's execution
   * @param traceId the client's trace id
   */
  public static void job(
      String jobId, Integer stepIndex, String capability, String executionId, String traceId) {
    put(JOB_ID, jobId);
    put(STEP_INDEX, stepIndex == null ? null : stepIndex.toString());
    put(CAPABILITY, capability);
    put(EXECUTION_ID, executionId);
    put(TRACE_ID, traceId);
  }

  /** Sets one field of this thread, or removes it when {@code value} is {@code null}. */
  public static void put(String key, String value) {
    if (value == null) {
      MDC.remove(key);
    } else {
      MDC.put(key, value);
    }
  }

  /** The value of one field on this thread, or {@code null}. */
  public static String get(String key) {
    Object value = MDC.get(key);
    return value == null ? null : value.toString();
  }

  /** Removes the job fields and the X-Ray trace header of this thread (the invocation's stay). */
  public static void clearJob() {
    for (String key : JOB_KEYS) {
      MDC.remove(key);
    }
  }
}
