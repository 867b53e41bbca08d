package dev.derive.infra.local.lambda;

/** Invokes a function of the local stack synchronously (the seam the HTTP API and SQS use). */
@FunctionalInterface
public interface FunctionInvoker {

  /**
   * Invokes the function {@code logicalId} with {@code event} (JSON bytes) and waits for its
   * result; errors of the function come back as {@link InvocationResult.Failure}.
   *
   * @throws IllegalArgumentException if there is no such function
   */
  InvocationResult invoke(String logicalId, byte[] event);
}
