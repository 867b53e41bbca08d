package dev.derive.worker.runtime.report;

/**
 * A step's result that could not be sent to the coordinator (the runtime lets SQS deliver the step
 * again), with a sentence a user may read saying why: the adapter words it, so that the runtime's
 * logic names no AWS type.
 */
public final class ReportNotSentException extends RuntimeException {
  private final String description;

  /**
   * @param description why, with no class name or address (e.g. "the storage or queue service could
   *     not be reached")
   * @param cause the queue client's own exception
   */
  public ReportNotSentException(String description, Throwable cause) {
    super("step result not sent: " + description, cause);
    this.description = description;
  }

  /** Why the result was not sent, as a user may read it. */
  public String description() {
    return description;
  }
}
