package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepErrorTypes;
import java.util.Objects;

/**
 * A step failed in a way that redelivering its message cannot fix: the input is corrupt, too large,
 * of an unsupported format, the step itself is invalid, or (raised by the runtime) the step ran out
 * of time, its input is gone or its source changed. The runtime reports a FAILED step result and
 * deletes the message instead of letting SQS redeliver it.
 *
 * <p>"Permanent" is about this delivery; whether a <em>new request</em> for the derivative may
 * succeed is the error's {@linkplain StepError#retryable() retryability}, which {@link
 * StepErrorKinds} decides from the kind.
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

  /** Whether a new request may succeed: {@link StepErrorKinds#retryable} of the kind. */
  public boolean retryable() {
    return StepErrorKinds.retryable(type);
  }

  /** The error to report, retryable as {@link #retryable()} says. */
  public StepError toStepError() {
    return new StepError(type, getMessage(), retryable());
  }
}
