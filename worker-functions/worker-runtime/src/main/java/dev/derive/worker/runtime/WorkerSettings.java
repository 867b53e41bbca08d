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
 * @param startReportDelayMillis how long a step runs before its start report is sent (env {@value
 *     #START_REPORT_DELAY_VARIABLE}, default {@value #DEFAULT_START_REPORT_DELAY_MILLIS} ms): a
 *     step that ends sooner sends only its result, which carries the same attempt and start time,
 *     and saves the coordinator a progress invocation (an SQS message, a Lambda invocation and a
 *     DynamoDB write); 0 reports every start at once
 */
public record WorkerSettings(
    String stepResultsQueueUrl,
    long maxSourceBytes,
    long deadlineMarginMillis,
    Path tempDirectory,
    int maxReceiveCount,
    long startReportDelayMillis) {

  /** Default of {@code MAX_SOURCE_BYTES}: 100 MiB. */
  public static final long DEFAULT_MAX_SOURCE_BYTES = 104_857_600L;

  /** Default safety margin before the Lambda deadline, in milliseconds. */
  public static final long DEFAULT_DEADLINE_MARGIN_MILLIS = 10_000L;

  /** The environment variable holding the worker queue's {@code maxReceiveCount}. */
  public static final String MAX_RECEIVE_COUNT_VARIABLE = "STEP_MAX_RECEIVE_COUNT";

  /** The environment variable holding {@link #startReportDelayMillis}. */
  public static final String START_REPORT_DELAY_VARIABLE = "START_REPORT_DELAY_MILLIS";

  /**
   * Default of {@link #startReportDelayMillis}: one second, a console's polling interval, so a job
   * seen RUNNING is one a person could have watched running.
   */
  public static final long DEFAULT_START_REPORT_DELAY_MILLIS = 1_000L;

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
    if (startReportDelayMillis < 0) {
      throw new IllegalArgumentException(
          START_REPORT_DELAY_VARIABLE + " must not be negative: " + startReportDelayMillis);
    }
  }

  /** Settings that report every start at once (no delay), with {@code maxReceiveCount}. */
  public WorkerSettings(
      String stepResultsQueueUrl,
      long maxSourceBytes,
      long deadlineMarginMillis,
      Path tempDirectory,
      int maxReceiveCount) {
    this(
        stepResultsQueueUrl,
        maxSourceBytes,
        deadlineMarginMillis,
        tempDirectory,
        maxReceiveCount,
        0);
  }

  /**
   * Settings without a known {@code maxReceiveCount} (no delivery is treated as the last) that
   * report every start at once.
   */
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
        stepResultsQueueUrl,
        maxSourceBytes,
        deadlineMarginMillis,
        tempDirectory,
        maxReceiveCount,
        startReportDelayMillis);
  }

  /** These settings with {@code startReportDelayMillis} (0: report every start at once). */
  public WorkerSettings withStartReportDelayMillis(long startReportDelayMillis) {
    return new WorkerSettings(
        stepResultsQueueUrl,
        maxSourceBytes,
        deadlineMarginMillis,
        tempDirectory,
        maxReceiveCount,
        startReportDelayMillis);
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
   * Reads {@code STEP_RESULTS_QUEUE_URL}, {@code MAX_SOURCE_BYTES}, {@code STEP_MAX_RECEIVE_COUNT}
   * and {@code START_REPORT_DELAY_MILLIS} from {@code environment}; the margin is the default and
   * the temp directory is {@code java.io.tmpdir}.
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
        parseMaxReceiveCount(environment.get(MAX_RECEIVE_COUNT_VARIABLE)),
        parseStartReportDelay(environment.get(START_REPORT_DELAY_VARIABLE)));
  }

  /**
   * Parses a value of {@code START_REPORT_DELAY_MILLIS}: {@code null} or blank is the default.
   *
   * @throws IllegalArgumentException if it is not a whole number of milliseconds
   */
  public static long parseStartReportDelay(String value) {
    if (value == null || value.isBlank()) {
      return DEFAULT_START_REPORT_DELAY_MILLIS;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          START_REPORT_DELAY_VARIABLE + " is not a number of milliseconds: " + value, e);
    }
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
