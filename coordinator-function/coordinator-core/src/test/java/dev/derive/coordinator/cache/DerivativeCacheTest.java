package dev.derive.coordinator.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.derive.coordinator.lifecycle.InMemoryObjects;
import dev.derive.coordinator.lifecycle.MutableClock;
import dev.derive.coordinator.plan.DerivativeFingerprint;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.storage.ObjectMetadata;
import dev.derive.storage.ObjectStoreException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DerivativeCacheTest {
  private static final String FP = "a".repeat(64);
  private final InMemoryObjects objects = new InMemoryObjects();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T12:00:00Z"));

  private DerivativeCache cache(Duration memory) {
    objects.put(
        "derivatives", DerivativeFingerprint.objectKey(FP), "x".getBytes(StandardCharsets.UTF_8));
    return new DerivativeCache(
        objects, "derivatives", Duration.ofMinutes(5), new RecentHits(memory, clock));
  }

  @Test
  void aRecentHitIsAnsweredWithoutAskingTheBucketUntilItsMemoryEnds() {
    DerivativeCache cache = cache(Duration.ofSeconds(30));
    assertTrue(cache.lookup(FP).isPresent());
    objects.delete("derivatives", DerivativeFingerprint.objectKey(FP));
    assertTrue(cache.lookup(FP).isPresent(), "remembered: no HeadObject made");
    clock.advance(Duration.ofSeconds(30));
    assertTrue(cache.lookup(FP).isEmpty(), "forgotten: the bucket says it is gone");
  }

  @Test
  void withoutMemoryEveryLookupAsksTheBucket() {
    DerivativeCache cache = cache(Duration.ZERO);
    assertTrue(cache.lookup(FP).isPresent());
    objects.delete("derivatives", DerivativeFingerprint.objectKey(FP));
    assertTrue(cache.lookup(FP).isEmpty());
  }

  @Test
  void aMemoryLongerThanHalfTheDownloadLifetimeIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new DerivativeCache(
                objects,
                "derivatives",
                Duration.ofMinutes(5),
                new RecentHits(Duration.ofSeconds(151), clock)));
  }

  @Test
  void stepOutputsAreAskedSideBySideAndAnsweredInOrderAndAFailedHeadFailsThem() {
    CountDownLatch together = new CountDownLatch(3);
    InMemoryObjects waiting =
        new InMemoryObjects() {
          @Override
          public Optional<ObjectMetadata> head(ObjectRef ref) {
            together.countDown();
            try {
              // each HEAD returns only once all three were asked: none waits for another's answer
              assertTrue(together.await(10, TimeUnit.SECONDS), "the HEADs are asked one by one");
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
            return super.head(ref);
          }
        };
    waiting.put("derivatives", "intermediates/b", new byte[] {1});
    DerivativeCache cache =
        new DerivativeCache(waiting, "derivatives", Duration.ofMinutes(5), RecentHits.none());

    assertEquals(
        List.of(false, true, false),
        cache.stepOutputsExist(
            List.of(
                ObjectRef.of("derivatives", "intermediates/a"),
                ObjectRef.of("derivatives", "intermediates/b"),
                ObjectRef.of("derivatives", "derivatives/b"))));
    InMemoryObjects broken =
        new InMemoryObjects() {
          @Override
          public Optional<ObjectMetadata> head(ObjectRef ref) {
            if (ref.key().equals("broken")) {
              throw new ObjectStoreException("HeadObject broken failed", null);
            }
            return super.head(ref);
          }
        };
    assertThrows(
        ObjectStoreException.class,
        () ->
            new DerivativeCache(broken, "derivatives", Duration.ofMinutes(5), RecentHits.none())
                .stepOutputsExist(
                    List.of(
                        ObjectRef.of("derivatives", "intermediates/a"),
                        ObjectRef.of("derivatives", "broken"))));
  }

  @Test
  void aMissIsNeverRemembered() {
    DerivativeCache cache =
        new DerivativeCache(
            objects,
            "derivatives",
            Duration.ofMinutes(5),
            new RecentHits(Duration.ofSeconds(30), clock));
    assertTrue(cache.lookup(FP).isEmpty());
    objects.put("derivatives", DerivativeFingerprint.objectKey(FP), new byte[] {1});
    assertTrue(cache.lookup(FP).isPresent());
  }
}
