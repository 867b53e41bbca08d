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

  /** The step did not finish before the function's deadline. */
  public static final String TIMEOUT = "timeout";

  private StepErrorTypes() {}
}
