package dev.derive.worker.runtime;

import java.util.Locale;

/** How one SQS record ended; the value of the {@code outcome} key of the step log line. */
public enum StepOutcome {
  /** The step ran and its output was written and reported. */
  SUCCEEDED,
  /** The output already existed; reported as a success without transforming. */
  REUSED,
  /**
   * A FAILED result was reported (retryable or not, see {@link StepErrorKinds}), or the message was
   * malformed and dropped.
   */
  FAILED,
  /** A transient failure or the deadline: handed back to SQS as a batch item failure. */
  RETRY;

  /** Whether SQS should delete the message (true) or redeliver it (false). */
  public boolean processed() {
    return this != RETRY;
  }

  /** The lower-case name used in logs, e.g. {@code succeeded}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
