package dev.derive.coordinator.cache;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.derive.coordinator.lifecycle.MutableClock;
import dev.derive.storage.PresignedDownload;
import java.net.MalformedURLException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RecentHitsTest {
  private static final PresignedDownload DOWNLOAD = download();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T12:00:00Z"));

  @Test
  void aHitIsRememberedForItsMemoryAndNotAMomentLonger() {
    RecentHits hits = new RecentHits(Duration.ofSeconds(30), clock);
    assertFalse(hits.recent("fp").isPresent());
    hits.seen("fp", DOWNLOAD);
    clock.advance(Duration.ofSeconds(29));
    assertTrue(hits.recent("fp").isPresent());
    clock.advance(Duration.ofSeconds(1));
    assertFalse(hits.recent("fp").isPresent());
  }

  private static PresignedDownload download() {
    try {
      return new PresignedDownload(
          URI.create("http://objects.test/d").toURL(), Instant.parse("2026-12-01T12:05:00Z"));
    } catch (MalformedURLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void theSameDownloadIsHandedOutAgain() {
    RecentHits hits = new RecentHits(Duration.ofSeconds(30), clock);
    hits.seen("fp", DOWNLOAD);
    assertSame(DOWNLOAD, hits.recent("fp").orElseThrow());
  }

  @Test
  void noMemoryRemembersNothing() {
    RecentHits hits = RecentHits.none();
    hits.seen("fp", DOWNLOAD);
    assertFalse(hits.recent("fp").isPresent());
  }

  @Test
  void theLeastRecentlyUsedIsDroppedPastTheCapacity() {
    RecentHits hits = new RecentHits(Duration.ofSeconds(30), clock);
    hits.seen("first", DOWNLOAD);
    hits.seen("second", DOWNLOAD);
    assertTrue(hits.recent("first").isPresent()); // used: "second" is now the eldest
    for (int i = 0; i < RecentHits.CAPACITY - 1; i++) {
      hits.seen("fp-" + i, DOWNLOAD);
    }
    assertTrue(hits.recent("first").isPresent());
    assertFalse(hits.recent("second").isPresent());
  }
}
