package dev.derive.coordinator.lifecycle;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that only moves when a test moves it: leases and holds are tested without sleeping. */
public final class MutableClock extends Clock {
  private volatile Instant now;

  /** A clock standing at {@code start}. */
  public MutableClock(Instant start) {
    this.now = start;
  }

  /** Moves the clock forward by {@code step}. */
  public void advance(Duration step) {
    now = now.plus(step);
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
