package dev.derive.coordinator.completion;

import java.time.Duration;

/**
 * When a failed callback is tried again: after {@code base × 4^(n−1)} for its {@code n}th failed
 * attempt, at most {@link #MAX_DELAY} (SQS's visibility timeout cannot exceed 12 hours). With the
 * default 30 s base and the queue's {@code maxReceiveCount} of 8, the attempts come after 30 s, 2,
 * 8 and 32 minutes, 2 h 8 min and twice 6 h: about 15 hours of retries before the delivery is
 * dead-lettered.
 */
public final class CallbackRetries {
  /** The longest pause between two attempts. */
  public static final Duration MAX_DELAY = Duration.ofHours(6);

  private final Duration base;

  /** Retries whose first pause is {@code base} ({@code CALLBACK_RETRY_BASE_SECONDS}, 30 s). */
  public CallbackRetries(Duration base) {
    this.base = base;
  }

  /** The pause after failed attempt {@code attempt} (from 1). */
  public Duration delayAfter(int attempt) {
    int n = Math.max(1, Math.min(attempt, 16));
    long seconds = base.toSeconds();
    for (int i = 1; i < n && seconds < MAX_DELAY.toSeconds(); i++) {
      seconds *= 4;
    }
    return Duration.ofSeconds(Math.min(seconds, MAX_DELAY.toSeconds()));
  }
}
