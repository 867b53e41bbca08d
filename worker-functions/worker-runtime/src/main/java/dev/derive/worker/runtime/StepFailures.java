package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepErrorTypes;

/**
 * Classifies what a step threw and ends the delivery accordingly:
 *
 * <ul>
 *   <li>a {@link PermanentStepFailure}: reported as the step's FAILED result (retryable or not as
 *       {@link StepErrorKinds} says), the message is deleted;
 *   <li>a {@link StackOverflowError} anywhere in the cause chain: the input's, the same on every
 *       delivery: a permanent {@code corrupt-input} at once; the process is marked untrustworthy
 *       ({@link WorkerHealth}) all the same;
 *   <li>any other {@link VirtualMachineError} (out of memory) anywhere in the cause chain, even
 *       wrapped in a capability's input error: the worker's failure, never the input's; the process
 *       is marked untrustworthy and the delivery is transient;
 *   <li>anything else, and a partial budget's {@link DeadlineExceededException}: transient, handed
 *       back to SQS for a redelivery.
 * </ul>
 *
 * <p>A transient failure on the message's last delivery ({@link WorkerSettings#lastDelivery}) is
 * reported instead of handed back, as a retryable {@code worker-failed} (or {@code timeout}) error
 * naming the deliveries and the last cause, so the job fails with a reason rather than waiting on a
 * dead-lettered message; if the output already exists (only its success report failed, or the step
 * failed after its upload) its success is reported instead.
 */
final class StepFailures {
  private static final System.Logger LOG = System.getLogger(StepFailures.class.getName());

  /** The detail of a step whose input overflowed the stack. */
  static final String TOO_DEEP =
      "the file's structure nests too deeply to be read (parts that contain or draw each other"
          + " without end, such as glyphs or forms that draw one another)";

  private final StepReports reports;
  private final WorkerSettings settings;
  private final WorkerHealth health;
  private final dev.derive.storage.ObjectStore store;

  /**
   * @param store where a failed step's output is looked for on its last delivery
   */
  StepFailures(
      StepReports reports,
      WorkerSettings settings,
      WorkerHealth health,
      dev.derive.storage.ObjectStore store) {
    this.reports = reports;
    this.settings = settings;
    this.health = health;
    this.store = store;
  }

  /** Ends {@code attempt}, whose step threw {@code thrown} after making {@code progress}. */
  StepOutcome failed(StepAttempt attempt, StepProgress progress, Throwable thrown) {
    VirtualMachineError broken = FailureDescriptions.virtualMachineError(thrown);
    if (broken instanceof StackOverflowError) {
      // A property of the input (structures that nest or refer to each other without end), the
      // same on every delivery: fail it now rather than three deliveries apart. The thread's stack
      // is unwound, but replace the process all the same, as after any VirtualMachineError.
      health.poison(
          "step " + attempt.nameWithCapability() + ": " + FailureDescriptions.describe(thrown));
      return permanent(
          attempt, progress, new PermanentStepFailure(StepErrorTypes.CORRUPT_INPUT, TOO_DEEP));
    }
    if (broken != null) {
      // e.g. a decoder that wrapped an OutOfMemoryError as corrupt input: the worker's failure
      health.poison(
          "step " + attempt.nameWithCapability() + ": " + FailureDescriptions.describe(thrown));
      return handBack(
          attempt,
          progress,
          thrown,
          broken.getClass().getSimpleName(),
          StepErrorTypes.WORKER_FAILED);
    }
    if (thrown instanceof PermanentStepFailure failure) {
      return permanent(attempt, progress, failure);
    }
    if (thrown instanceof DeadlineExceededException) {
      return handBack(attempt, progress, thrown, StepErrorTypes.TIMEOUT, StepErrorTypes.TIMEOUT);
    }
    return handBack(
        attempt, progress, thrown, thrown.getClass().getSimpleName(), StepErrorTypes.WORKER_FAILED);
  }

  /**
   * Hands a delivery back to SQS without starting it, logging it as a retry with {@code errorType}
   * and {@code logDetail}; on its last delivery reports it FAILED instead, with the retryable
   * {@code errorType} and {@code cause} (a human sentence) as the last error.
   */
  StepOutcome unstarted(StepAttempt attempt, String errorType, String logDetail, String cause) {
    if (settings.lastDelivery(attempt.attempt())) {
      return exhausted(attempt, StepProgress.NONE, errorType, cause);
    }
    reports.log(attempt, StepProgress.NONE, StepOutcome.RETRY, errorType, logDetail);
    return StepOutcome.RETRY;
  }

  /** Reports {@code failure} as the step's FAILED result; hands the delivery back if that fails. */
  private StepOutcome permanent(
      StepAttempt attempt, StepProgress progress, PermanentStepFailure failure) {
    StepError error =
        new StepError(
            failure.type(),
            FailureDescriptions.forUser(failure.type(), failure.detail()),
            failure.retryable());
    if (failure.getCause() != null) {
      // the library's own words (class names, its messages) are for the log, not the user
      LOG.log(
          System.Logger.Level.INFO,
          "step " + attempt.name() + " failed with " + failure.type() + ": " + failure.detail(),
          failure.getCause());
    }
    return reports.failure(
        attempt,
        progress,
        error,
        "could not report the failure of step ",
        failure.type(),
        failure.detail());
  }

  /**
   * A transient failure: hands the delivery back to SQS (logged as a retry with {@code
   * retryErrorType}), except on its last delivery, where it is reported FAILED with {@code
   * exhaustedType} (or, if the output exists, its success is reported once more).
   */
  private StepOutcome handBack(
      StepAttempt attempt,
      StepProgress progress,
      Throwable cause,
      String retryErrorType,
      String exhaustedType) {
    if (settings.lastDelivery(attempt.attempt())) {
      if (progress.success() != null) {
        // The output is there; only its report failed: try the report once more.
        return reports.successAgain(attempt, progress);
      }
      java.util.OptionalLong landed = outputBytes(attempt);
      if (landed.isPresent()) {
        // it failed after its output landed (between the upload and the report): the bytes are
        // made, and a failure reported now would contradict them
        return reports.successAfterAll(attempt, progress, landed.getAsLong());
      }
      LOG.log(
          System.Logger.Level.WARNING,
          "step " + attempt.name() + " failed on its last delivery",
          cause);
      return exhausted(attempt, progress, exhaustedType, FailureDescriptions.describe(cause));
    }
    LOG.log(
        System.Logger.Level.WARNING, "step " + attempt.name() + " will be retried by SQS", cause);
    reports.log(attempt, progress, StepOutcome.RETRY, retryErrorType, cause.getMessage());
    return StepOutcome.RETRY;
  }

  /** The size of the step's output if it is in the bucket; empty if not or if the HEAD failed. */
  private java.util.OptionalLong outputBytes(StepAttempt attempt) {
    try {
      return store
          .head(attempt.step().output())
          .map(m -> java.util.OptionalLong.of(m.sizeBytes()))
          .orElse(java.util.OptionalLong.empty());
    } catch (RuntimeException e) {
      return java.util.OptionalLong.empty();
    }
  }

  /**
   * Reports that the step failed on all its deliveries, {@code lastCause} (a human sentence) being
   * the last one; hands the delivery back if even that report cannot be sent.
   */
  private StepOutcome exhausted(
      StepAttempt attempt, StepProgress progress, String type, String lastCause) {
    int deliveries = attempt.attempt();
    String detail =
        "step "
            + (attempt.step().stepIndex() + 1)
            + " of "
            + attempt.step().stepCount()
            + " ("
            + attempt.step().capability()
            + ") failed on all "
            + deliveries
            + (deliveries == 1 ? " delivery" : " deliveries")
            + "; last error: "
            + lastCause;
    StepError error = new StepError(type, detail, StepErrorKinds.retryable(type));
    return reports.failure(
        attempt, progress, error, "could not report the exhausted step ", type, detail);
  }
}
