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
 * @param maxReceiveCount the {@code maxReceiveCount} of the worker's queue's redrive policy (env
 *     {@value #MAX_RECEIVE_COUNT_VARIABLE}): a delivery whose {@code ApproximateReceiveCount}
 *     reaches it is the last before the dead-letter queue, so a transient failure on it is reported
 *     as a FAILED result instead of being handed back; 0 (the default) means unknown, and no
 *     delivery is treated as the last
 */
public record WorkerSettings(
    String stepResultsQueueUrl,
    long maxSourceBytes,
    long deadlineMarginMillis,
    Path tempDirectory,
    int maxReceiveCount) {

  /** Default of {@code MAX_SOURCE_BYTES}: 100 MiB. */
  public static final long DEFAULT_MAX_SOURCE_BYTES = 104_857_600L;

  /** Default safety margin before the Lambda deadline, in milliseconds. */
  public static final long DEFAULT_DEADLINE_MARGIN_MILLIS = 10_000L;

  /** The environment variable holding the worker queue's {@code maxReceiveCount}. */
  public static final String MAX_RECEIVE_COUNT_VARIABLE = "STEP_MAX_RECEIVE_COUNT";

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
    if (maxReceiveCount < 0) {
      throw new IllegalArgumentException(
          MAX_RECEIVE_COUNT_VARIABLE + " must not be negative: " + maxReceiveCount);
    }
  }

  /** Settings without a known {@code maxReceiveCount}: no delivery is treated as the last. */
  public WorkerSettings(
      String stepResultsQueueUrl,
      long maxSourceBytes,
      long deadlineMarginMillis,
      Path tempDirectory) {
    this(stepResultsQueueUrl, maxSourceBytes, deadlineMarginMillis, tempDirectory, 0);
  }

  /** These settings with {@code maxReceiveCount} (0: unknown). */
  public WorkerSettings withMaxReceiveCount(int maxReceiveCount) {
    return new WorkerSettings(
        stepResultsQueueUrl, maxSourceBytes, deadlineMarginMillis, tempDirectory, maxReceiveCount);
  }

  /**
   * Whether the {@code attempt}-th delivery (1-based {@code ApproximateReceiveCount}) is the last
   * one SQS makes before dead-lettering the message: {@code attempt >= maxReceiveCount}, never when
   * {@code maxReceiveCount} is unknown (0).
   */
  public boolean lastDelivery(int attempt) {
    return maxReceiveCount > 0 && attempt >= maxReceiveCount;
  }

  /**
   * Reads {@code STEP_RESULTS_QUEUE_URL}, {@code MAX_SOURCE_BYTES} and {@code
   * STEP_MAX_RECEIVE_COUNT} from {@code environment}; the margin is the default and the temp
   * directory is {@code java.io.tmpdir}.
   *
   * @throws IllegalArgumentException if the queue URL is missing or a number is malformed
   */
  public static WorkerSettings fromEnvironment(Map<String, String> environment) {
    String maxSource = environment.get("MAX_SOURCE_BYTES");
    long maxSourceBytes;
    try {
      maxSourceBytes =
          maxSource == null || maxSource.isBlank()
              ? DEFAULT_MAX_SOURCE_BYTES
              : Long.parseLong(maxSource.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("MAX_SOURCE_BYTES is not a number: " + maxSource, e);
    }
    return new WorkerSettings(
        environment.get("STEP_RESULTS_QUEUE_URL"),
        maxSourceBytes,
        DEFAULT_DEADLINE_MARGIN_MILLIS,
        Path.of(System.getProperty("java.io.tmpdir")),
        parseMaxReceiveCount(environment.get(MAX_RECEIVE_COUNT_VARIABLE)));
  }

  /**
   * Parses a value of {@code STEP_MAX_RECEIVE_COUNT}: {@code null} or blank is 0 (unknown).
   *
   * @throws IllegalArgumentException if it is not a non-negative integer
   */
  public static int parseMaxReceiveCount(String value) {
    if (value == null || value.isBlank()) {
      return 0;
    }
    try {
      int count = Integer.parseInt(value.trim());
      if (count < 0) {
        throw new IllegalArgumentException(
            MAX_RECEIVE_COUNT_VARIABLE + " must not be negative: " + value);
      }
      return count;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          MAX_RECEIVE_COUNT_VARIABLE + " is not a number: " + value, e);
    }
  }
}
