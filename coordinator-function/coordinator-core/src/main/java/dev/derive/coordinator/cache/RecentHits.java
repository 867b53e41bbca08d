package dev.derive.coordinator.cache;

import dev.derive.coordinator.storage.PresignedDownload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The derivatives this instance has recently seen in the bucket, with the download handed out for
 * each, so that a repeated hit costs no HeadObject and no signing. A derivative is
 * content-addressed and never rewritten, so the one thing a remembered hit can miss is a deletion
 * (a lifecycle expiry, an operator) within {@code memory}: the same window in which a download URL
 * already handed out stops working. Bounded to {@link #CAPACITY} entries, the least recently used
 * dropped first; {@code memory} zero remembers nothing.
 */
public final class RecentHits {
  /** Entries kept at most: about 1.5 MB of fingerprints and instants. */
  public static final int CAPACITY = 10_000;

  private final Duration memory;
  private final Clock clock;

  private record Seen(PresignedDownload download, Instant until) {}

  private final Map<String, Seen> seen =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Seen> eldest) {
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

  /** How long a hit is remembered. */
  public Duration memory() {
    return memory;
  }

  /** Remembers nothing: every lookup asks the bucket. */
  public static RecentHits none() {
    return new RecentHits(Duration.ZERO, Clock.systemUTC());
  }

  /** The download of {@code fingerprint} if it was seen in the bucket within the memory. */
  public synchronized Optional<PresignedDownload> recent(String fingerprint) {
    Seen entry = seen.get(fingerprint);
    if (entry == null) {
      return Optional.empty();
    }
    if (!clock.instant().isBefore(entry.until())) {
      seen.remove(fingerprint);
      return Optional.empty();
    }
    return Optional.of(entry.download());
  }

  /**
   * Records that {@code fingerprint} is in the bucket now, with the download handed out for it; the
   * download is handed out again while remembered, so it must outlive the memory.
   */
  public synchronized void seen(String fingerprint, PresignedDownload download) {
    if (!memory.isZero()) {
      seen.put(fingerprint, new Seen(download, clock.instant().plus(memory)));
    }
  }
}
