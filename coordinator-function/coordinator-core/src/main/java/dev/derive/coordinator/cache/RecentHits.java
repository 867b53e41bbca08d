package dev.derive.coordinator.cache;

import dev.derive.coordinator.memory.LeastRecentlyUsed;
import dev.derive.storage.PresignedDownload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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

  private final LeastRecentlyUsed<String, Seen> seen = new LeastRecentlyUsed<>(CAPACITY);

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
  public Optional<PresignedDownload> recent(String fingerprint) {
    // an expired entry stays until the next hit replaces it or the least recently used go
    Seen entry = seen.get(fingerprint);
    return entry == null || !clock.instant().isBefore(entry.until())
        ? Optional.empty()
        : Optional.of(entry.download());
  }

  /**
   * Records that {@code fingerprint} is in the bucket now, with the download handed out for it; the
   * download is handed out again while remembered, so it must outlive the memory.
   */
  public void seen(String fingerprint, PresignedDownload download) {
    if (!memory.isZero()) {
      seen.put(fingerprint, new Seen(download, clock.instant().plus(memory)));
    }
  }
}
