package dev.derive.coordinator.service;

import dev.derive.coordinator.memory.LeastRecentlyUsed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How long this instance's recent waits for a job took until they saw it SUCCEEDED, by the job's
 * plan (the capabilities of its steps in order, {@code "markup,pdf,image"}): when a new wait for a
 * job of the same plan can expect its end at the earliest, so that it need not read the record
 * densely before then ({@link PollSchedule#next(Duration, Duration, Duration)}).
 *
 * <p>The expectation is the shortest of the last {@link #KEPT_PER_PLAN} waits, and only once two
 * were seen: one slow wait (a worker's cold start, a large source) never makes a later wait read
 * late, and plans whose jobs vary (thumbnails of small and of large photos) expect the short ones.
 * Thread-safe; bounded to {@link #PLANS} plans.
 */
final class RecentWaits {
  /** Waits remembered per plan. */
  static final int KEPT_PER_PLAN = 8;

  /** Waits seen before a plan has an expectation. */
  static final int TRUSTED_AFTER = 2;

  /** Plans remembered (least recently used dropped): a few hundred bytes each. */
  static final int PLANS = 256;

  private final LeastRecentlyUsed<String, List<Duration>> waits = new LeastRecentlyUsed<>(PLANS);

  /** Records that a wait for a job of {@code plan} saw it SUCCEEDED after {@code waited}. */
  synchronized void record(String plan, Duration waited) {
    List<Duration> kept = waits.get(plan);
    List<Duration> next = new ArrayList<>(kept == null ? List.of() : kept);
    next.add(waited);
    if (next.size() > KEPT_PER_PLAN) {
      next.remove(0);
    }
    waits.put(plan, List.copyOf(next));
  }

  /**
   * The shortest recent wait for a job of {@code plan}; empty until {@link #TRUSTED_AFTER} were
   * recorded.
   */
  synchronized Optional<Duration> shortest(String plan) {
    List<Duration> kept = waits.get(plan);
    if (kept == null || kept.size() < TRUSTED_AFTER) {
      return Optional.empty();
    }
    return kept.stream().min(Duration::compareTo);
  }
}
