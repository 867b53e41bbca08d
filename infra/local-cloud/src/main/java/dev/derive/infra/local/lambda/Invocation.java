package dev.derive.infra.local.lambda;

import java.util.concurrent.CompletableFuture;

/**
 * One event handed to a function instance through the Runtime API, and the future its result
 * completes.
 *
 * @param requestId the {@code Lambda-Runtime-Aws-Request-Id}
 * @param payload the event (JSON bytes)
 * @param deadlineEpochMs the {@code Lambda-Runtime-Deadline-Ms}: when the invocation times out, in
 *     milliseconds since the epoch
 * @param functionArn the {@code Lambda-Runtime-Invoked-Function-Arn}
 * @param traceId the {@code Lambda-Runtime-Trace-Id}
 */
public record Invocation(
    String requestId,
    byte[] payload,
    long deadlineEpochMs,
    String functionArn,
    String traceId,
    CompletableFuture<InvocationResult> result) {}
