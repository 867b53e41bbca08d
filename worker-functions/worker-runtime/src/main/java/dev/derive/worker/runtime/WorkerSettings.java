package dev.derive.worker.runtime;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Settings shared by every worker function.
 *
 * @param stepResultsQueueUrl URL of the step-results queue (env {@code STEP_RESULTS_QUEUE_URL})
 * @param maxSourceBytes largest input a step may read, in bytes (env {@code MAX_SOURCE_BYTES},
 *     default {@value #DEFAULT_MAX_SOURCE_BYTES} = 100 MiB, the {@code MaxSourceBytes} default of
 *     {@code template.yaml})
 * @param deadlineMarginMillis a record is only started while the invocation has more than this many
 *     milliseconds left (later records are handed back to SQS), and a running step is stopped when
 *     only this many remain, leaving time to clean up and report (default {@value
 *     #DEFAULT_DEADLINE_MARGIN_MILLIS} ms)
 * @param tempDirectory where inputs and outputs are staged (Lambda offers 512 MiB of {@code /tmp}
 *     by default)
 */
public record WorkerSettings(
    String stepResultsQueueUrl,
    long maxSourceBytes,
    long deadlineMarginMillis,
    Path tempDirectory) {

  /** Default of {@code MAX_SOURCE_BYTES}: 100 MiB. */
  public static final long DEFAULT_MAX_SOURCE_BYTES = 104_857_600L;

  /** Default safety margin before the Lambda deadline, in milliseconds. */
  public static final long DEFAULT_DEADLINE_MARGIN_MILLIS = 10_000L;

  public WorkerSettings {
    if (stepResultsQueueUrl == null || stepResultsQueueUrl.isBlank()) {
      throw new IllegalArgumentException(
          "STEP_RESULTS_QUEUE_URL is not set: workers report step results to that queue");
    }
    if (maxSourceBytes <= 0) {
      throw new IllegalArgumentException("MAX_SOURCE_BYTES must be positive: " + maxSourceBytes);
    }
    if (deadlineMarginMillis < 0) {
      throw new IllegalArgumentException("deadline margin must not be negative");
    }
    Objects.requireNonNull(tempDirectory, "tempDirectory");
  }

  /**
   * Reads {@code STEP_RESULTS_QUEUE_URL} and {@code MAX_SOURCE_BYTES} from {@code environment}; the
   * margin is the default and the temp directory is {@code java.io.tmpdir}.
   *
   * @throws IllegalArgumentException if the queue URL is missing or a number is malformed
   */
  public static WorkerSettings fromEnvironment(Map<String, String> environment) {
    String maxSource = environment.get("MAX_SOURCE_BYTES");
    try {
      return new WorkerSettings(
          environment.get("STEP_RESULTS_QUEUE_URL"),
          maxSource == null || maxSource.isBlank()
              ? DEFAULT_MAX_SOURCE_BYTES
              : Long.parseLong(maxSource.trim()),
          DEFAULT_DEADLINE_MARGIN_MILLIS,
          Path.of(System.getProperty("java.io.tmpdir")));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("MAX_SOURCE_BYTES is not a number: " + maxSource, e);
    }
  }
}
