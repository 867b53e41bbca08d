package dev.derive.coordinator.lifecycle;

import java.time.Duration;

/**
 * How long a retryable failure holds off the next claim of its job, by how many executions in a row
 * failed retryably: the first may be retried at once (a transient fault costs no wait), then 30 s,
 * 2 min, 8 min, 32 min and at most an hour. An input that always times out or breaks its worker so
 * costs a bounded number of executions an hour however often it is requested (issue 26 item 7; the
 * same capped exponential backoff AWS advises for retries). Meanwhile a request is answered with
 * the failure and {@code Retry-After}.
 */
final class RetryBackoff {
  static final Duration FIRST = Duration.ofSeconds(30);
  static final Duration MAX = Duration.ofHours(1);

  private RetryBackoff() {}

  /** The hold after the {@code failureStreak}-th retryable failure in a row (from 1). */
  static Duration after(int failureStreak) {
    if (failureStreak <= 1) {
      return Duration.ZERO;
    }
    int doublings = Math.min(2 * (failureStreak - 2), 20);
    Duration hold = FIRST.multipliedBy(1L << doublings);
    return hold.compareTo(MAX) > 0 ? MAX : hold;
  }

  /** {@code job}'s failure streak once it fails with an error {@code retryable} or not. */
  static int streakAfter(dev.derive.coordinator.job.Job job, boolean retryable) {
    return retryable ? job.failureStreak() + 1 : job.failureStreak();
  }

  /**
   * When {@code job}, failing at {@code now}, may be claimed again; null when at once (a first
   * retryable failure) or never by this rule (a permanent error, held by its own rule).
   */
  static java.time.Instant retryAfter(
      dev.derive.coordinator.job.Job job, boolean retryable, java.time.Instant now) {
    Duration hold = retryable ? after(streakAfter(job, true)) : Duration.ZERO;
    return hold.isZero() ? null : now.plus(hold);
  }
}
