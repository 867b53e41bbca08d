package dev.derive.coordinator.cache;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The derivatives this instance has recently seen in the bucket, so that a repeated hit costs no
 * HeadObject. A derivative is content-addressed and never rewritten, so the one thing a remembered
 * hit can miss is a deletion (a lifecycle expiry, an operator) within {@code memory}: the same
 * window in which a download URL already handed out stops working. Bounded to {@link #CAPACITY}
 * entries, the least recently used dropped first; {@code memory} zero remembers nothing.
 */
public final class RecentHits {
  /** Entries kept at most: about 1.5 MB of fingerprints and instants. */
  public static final int CAPACITY = 10_000;

  private final Duration memory;
  private final Clock clock;
  private final Map<String, Instant> seenUntil =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
          return size() > CAPACITY;
        }
      };

  /**
   * @param memory how long a hit is remembered ({@code CACHE_HIT_MEMORY_SECONDS}); zero for never
   */
  public RecentHits(Duration memory, Clock clock) {
    this.memory = memory;
    this.clock = clock;
  }

  /** Remembers nothing: every lookup asks the bucket. */
  public static RecentHits none() {
    return new RecentHits(Duration.ZERO, Clock.systemUTC());
  }

  /** Whether {@code fingerprint} was seen in the bucket within the memory. */
  public synchronized boolean contains(String fingerprint) {
    Instant until = seenUntil.get(fingerprint);
    if (until == null) {
      return false;
    }
    if (!clock.instant().isBefore(until)) {
      seenUntil.remove(fingerprint);
      return false;
    }
    return true;
  }

  /** Records that {@code fingerprint} is in the bucket now. */
  public synchronized void seen(String fingerprint) {
    if (!memory.isZero()) {
      seenUntil.put(fingerprint, clock.instant().plus(memory));
    }
  }
}
