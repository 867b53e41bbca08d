package dev.derive.coordinator.cache;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.derive.coordinator.lifecycle.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RecentHitsTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T12:00:00Z"));

  @Test
  void aHitIsRememberedForItsMemoryAndNotAMomentLonger() {
    RecentHits hits = new RecentHits(Duration.ofSeconds(30), clock);
    assertFalse(hits.contains("fp"));
    hits.seen("fp");
    clock.advance(Duration.ofSeconds(29));
    assertTrue(hits.contains("fp"));
    clock.advance(Duration.ofSeconds(1));
    assertFalse(hits.contains("fp"));
  }

  @Test
  void noMemoryRemembersNothing() {
    RecentHits hits = RecentHits.none();
    hits.seen("fp");
    assertFalse(hits.contains("fp"));
  }

  @Test
  void theLeastRecentlyUsedIsDroppedPastTheCapacity() {
    RecentHits hits = new RecentHits(Duration.ofSeconds(30), clock);
    hits.seen("first");
    hits.seen("second");
    assertTrue(hits.contains("first")); // used: "second" is now the eldest
    for (int i = 0; i < RecentHits.CAPACITY - 1; i++) {
      hits.seen("fp-" + i);
    }
    assertTrue(hits.contains("first"));
    assertFalse(hits.contains("second"));
  }
}
