package dev.derive.protocol.message;

/**
 * The stable error kinds a step can fail with. They become the last segment of the API's problem
 * {@code type} URI, so never rename one.
 */
public final class StepErrorTypes {
  /** The input's format is not one the capability reads. */
  public static final String UNSUPPORTED_INPUT = "unsupported-input";

  /** The input claims a supported format but cannot be decoded. */
  public static final String CORRUPT_INPUT = "corrupt-input";

  /** The input is encrypted and no usable password is known. */
  public static final String PASSWORD_REQUIRED = "password-required";

  /** The input exceeds a configured limit (bytes or pixels) before decoding. */
  public static final String INPUT_TOO_LARGE = "input-too-large";

  /** The output would exceed a configured limit. */
  public static final String OUTPUT_TOO_LARGE = "output-too-large";

  /** The input object no longer exists. */
  public static final String INPUT_MISSING = "input-missing";

  /** The step message itself is malformed (a bug in the sender, never retried). */
  public static final String INVALID_STEP = "invalid-step";

  /** The step did not finish before the function's deadline (retryable). */
  public static final String TIMEOUT = "timeout";

  /**
   * The source was overwritten after the coordinator identified it: its ETag no longer matches the
   * one the job's fingerprint was made from (retryable: a new request gets the new fingerprint).
   */
  public static final String SOURCE_CHANGED = "source-changed";

  /**
   * The step's message exhausted its queue's {@code maxReceiveCount} deliveries without a result
   * (the worker crashed, ran out of memory or was stopped each time) and reached the dead-letter
   * queue (retryable).
   */
  public static final String DEAD_LETTERED = "dead-lettered";

  /**
   * The job made no progress within its lease: no message of it can still be delivered (the lease
   * covers the step's whole retry horizon), so it is given up as failed (retryable). Only the
   * coordinator reports it, when a job is read past its lease.
   */
  public static final String STALLED = "stalled";

  /** The worker ran out of memory or had to be replaced; never the input's fault (retryable). */
  public static final String WORKER_FAILED = "worker-failed";

  private StepErrorTypes() {}
}
