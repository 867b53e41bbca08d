package dev.derive.coordinator.service;

import dev.derive.coordinator.memory.LeastRecentlyUsed;
import dev.derive.coordinator.plan.SourceObjects;
import dev.derive.protocol.message.PinnedObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The other objects of the source bucket a request names (a watermark, {@code "sourceObject":
 * true}) that this instance pinned recently, so that repeated requests naming the same mark cost no
 * HeadObject for it (the remembered-identity guess and the confirming plan of {@link
 * DerivativeService#submit} both ask).
 *
 * <p>A mark is not content-addressed: uploading a new one under the same key makes a new version. A
 * pin found is kept for {@link #MEMORY} from the HEAD that found it, so a mark replaced in that
 * window is noticed at most that long after the HEAD, on this instance; until then requests are
 * planned with the mark before: in a versioned bucket (the template's) as if they had come just
 * before the upload, in one without versions failing {@code source-changed} if they must be made
 * (the worker reads the mark with {@code If-Match}; docs/image-urls.md). A missing object is not
 * remembered: a mark uploaded after a 404 is found by the next request. Thread-safe; bounded to
 * {@link #CAPACITY} keys, the least recently used dropped first.
 */
final class RecentObjects implements SourceObjects.Lookup {
  /** How long a found pin is used without asking the bucket again. */
  static final Duration MEMORY = Duration.ofSeconds(10);

  /** Keys remembered at most: a few hundred bytes each. */
  static final int CAPACITY = 1_000;

  private record Found(PinnedObject pinned, Instant until) {}

  private final SourceObjects.Lookup bucket;
  private final Clock clock;
  private final LeastRecentlyUsed<String, Found> found = new LeastRecentlyUsed<>(CAPACITY);

  /**
   * @param bucket the lookup that asks the source bucket (a HEAD)
   */
  RecentObjects(SourceObjects.Lookup bucket, Clock clock) {
    this.bucket = bucket;
    this.clock = clock;
  }

  /** {@code key} pinned: as found within {@link #MEMORY}, else as the bucket has it now. */
  @Override
  public Optional<PinnedObject> find(String key) {
    Instant now = clock.instant();
    Found known = found.get(key);
    if (known != null && now.isBefore(known.until())) {
      return Optional.of(known.pinned());
    }
    Optional<PinnedObject> pinned = bucket.find(key);
    pinned.ifPresent(p -> found.put(key, new Found(p, now.plus(MEMORY))));
    return pinned;
  }
}
