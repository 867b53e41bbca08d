package dev.derive.worker.runtime;

/**
 * How long one step may run before the invocation's deadline, and what an overrun means.
 *
 * @param millis the time the step may take (remaining invocation time minus the deadline margin),
 *     in milliseconds; {@link Long#MAX_VALUE} when the invocation has no known deadline
 * @param wholeInvocation whether the step started with (nearly) the whole invocation's time: an
 *     overrun then fails the step with {@code timeout} (a retry gets no more time), otherwise the
 *     record is handed back to SQS for a retry in an invocation of its own
 */
record StepBudget(long millis, boolean wholeInvocation) {
  /** No deadline: the step runs until it finishes. */
  static final StepBudget UNLIMITED = new StepBudget(Long.MAX_VALUE, true);

  StepBudget {
    if (millis <= 0) {
      throw new IllegalArgumentException("a step budget must be positive: " + millis);
    }
  }
}
