package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepErrorTypes;
import java.util.Objects;

/**
 * A step failed in a way that retrying cannot fix (the input is corrupt, too large, of an
 * unsupported format, or the step itself is invalid). The runtime reports a FAILED step result and
 * deletes the message instead of letting SQS redeliver it.
 */
public class PermanentStepFailure extends RuntimeException {
  private final String type;

  /**
   * @param type one of {@link StepErrorTypes}
   * @param detail human-readable explanation, shown in the API's problem detail
   */
  public PermanentStepFailure(String type, String detail) {
    this(type, detail, null);
  }

  /**
   * @param type one of {@link StepErrorTypes}
   * @param detail human-readable explanation, shown in the API's problem detail
   * @param cause the underlying exception, kept for logs
   */
  public PermanentStepFailure(String type, String detail, Throwable cause) {
    super(detail, cause);
    this.type = Objects.requireNonNull(type, "type");
  }

  /** The stable error kind, one of {@link StepErrorTypes}. */
  public String type() {
    return type;
  }

  /** The human-readable explanation. */
  public String detail() {
    return getMessage();
  }

  /**
   * The error to report. Never retryable: the same input with the same operations fails the same
   * way.
   */
  public StepError toStepError() {
    return new StepError(type, getMessage(), false);
  }
}
