package dev.derive.infra.local.lambda;

/**
 * Thrown when a function cannot be started: its code is missing, its JVM does not start, or its
 * initialisation fails or takes too long.
 */
public class FunctionStartException extends RuntimeException {
  /** An error described by {@code message}. */
  public FunctionStartException(String message) {
    super(message);
  }

  /** An error described by {@code message}, caused by {@code cause}. */
  public FunctionStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
