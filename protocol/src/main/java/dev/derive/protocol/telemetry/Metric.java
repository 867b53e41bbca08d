package dev.derive.protocol.telemetry;

import java.util.List;

/**
 * Every metric Derive writes, in the CloudWatch namespace {@value #NAMESPACE}: its name, unit and
 * the dimensions it is written with (kept to capability, outcome and error type, so the number of
 * metric series stays small). The dashboard and alarms of {@code template.yaml} name these; a test
 * keeps them in step.
 */
public enum Metric {
  /** One per {@code POST /v1/derivatives} and image URL request, by how it was answered. */
  REQUESTS("Requests", Unit.COUNT, Dimension.OUTCOME),
  /** One per request answered with a problem, by the problem's type (e.g. invalid-request). */
  REJECTED_REQUESTS("RejectedRequests", Unit.COUNT, Dimension.ERROR_TYPE),
  /** One per step a worker finished, by capability and outcome (succeeded, reused, failed). */
  STEPS("Steps", Unit.COUNT, Dimension.CAPABILITY, Dimension.OUTCOME),
  /** Wall time of one step in its worker. */
  STEP_DURATION("StepDuration", Unit.MILLISECONDS, Dimension.CAPABILITY),
  /** Bytes a step read. */
  STEP_INPUT_BYTES("StepInputBytes", Unit.BYTES, Dimension.CAPABILITY),
  /** Bytes a step wrote. */
  STEP_OUTPUT_BYTES("StepOutputBytes", Unit.BYTES, Dimension.CAPABILITY),
  /** One per step that failed (for good or handed back for a retry), by its error type. */
  STEP_FAILURES("StepFailures", Unit.COUNT, Dimension.CAPABILITY, Dimension.ERROR_TYPE),
  /** The delivery count of a step message when a worker picks it up: above 1 is a redelivery. */
  STEP_DELIVERIES("StepDeliveries", Unit.COUNT, Dimension.CAPABILITY),
  /** How long a step message waited in its queue before a worker picked it up. */
  QUEUE_AGE("QueueAge", Unit.MILLISECONDS, Dimension.CAPABILITY),
  /** From a job's claim to its end, by outcome (succeeded, failed). */
  JOB_DURATION("JobDuration", Unit.MILLISECONDS, Dimension.OUTCOME),
  /** One per step message or step result the progress function took from a dead-letter queue. */
  DEAD_LETTERED_STEPS("DeadLetteredSteps", Unit.COUNT, Dimension.CAPABILITY);

  /** The CloudWatch namespace of every Derive metric. */
  public static final String NAMESPACE = "Derive";

  private final String metricName;
  private final Unit unit;
  private final List<String> dimensions;

  Metric(String metricName, Unit unit, String... dimensions) {
    this.metricName = metricName;
    this.unit = unit;
    this.dimensions = List.of(dimensions);
  }

  /** The CloudWatch metric name, e.g. {@code StepDuration}. */
  public String metricName() {
    return metricName;
  }

  /** The CloudWatch unit. */
  public Unit unit() {
    return unit;
  }

  /** The dimension names this metric is written with, in order. */
  public List<String> dimensions() {
    return dimensions;
  }

  /** CloudWatch units used by Derive's metrics (their exact CloudWatch spelling). */
  public enum Unit {
    COUNT("Count"),
    MILLISECONDS("Milliseconds"),
    BYTES("Bytes");

    private final String cloudWatchName;

    Unit(String cloudWatchName) {
      this.cloudWatchName = cloudWatchName;
    }

    /** The unit as CloudWatch spells it. */
    public String cloudWatchName() {
      return cloudWatchName;
    }
  }

  /** The dimension names. */
  public static final class Dimension {
    /** A capability, e.g. {@code image}. */
    public static final String CAPABILITY = "capability";

    /** How something ended, e.g. {@code cache-hit} or {@code succeeded}. */
    public static final String OUTCOME = "outcome";

    /** A step error type or problem type, e.g. {@code corrupt-input}. */
    public static final String ERROR_TYPE = "errorType";

    private Dimension() {}
  }
}
