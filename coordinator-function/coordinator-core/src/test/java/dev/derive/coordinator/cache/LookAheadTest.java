package dev.derive.coordinator.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.derive.coordinator.lifecycle.InMemoryObjects;
import dev.derive.coordinator.plan.DerivativeFingerprint;
import dev.derive.coordinator.storage.ObjectMetadata;
import dev.derive.coordinator.storage.ObjectStart;
import dev.derive.coordinator.storage.ObjectStore;
import dev.derive.coordinator.storage.ObjectStoreException;
import dev.derive.coordinator.storage.PresignedDownload;
import dev.derive.coordinator.storage.PresignedUpload;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A cache lookup started on a guessed fingerprint: used only when the guess was right. */
class LookAheadTest {
  private static final String GUESSED = "a".repeat(64);
  private static final String CONFIRMED = "b".repeat(64);

  /** Every HeadObject asked, by key; the ones under {@code failing} throw as S3 would. */
  private final List<String> heads = Collections.synchronizedList(new ArrayList<>());

  private String failing = "";

  private final InMemoryObjects objects = new InMemoryObjects();

  /** {@link #objects}, counting HEADs and failing those of {@link #failing}. */
  private final ObjectStore counted =
      new ObjectStore() {
        @Override
        public Optional<ObjectMetadata> head(String bucket, String key, String versionId) {
          heads.add(key);
          if (key.equals(failing)) {
            throw new ObjectStoreException("HeadObject " + key + " failed", null);
          }
          return objects.head(bucket, key, versionId);
        }

        @Override
        public Optional<ObjectStart> readStart(
            String bucket, String key, String versionId, int maxBytes, String ifNoneMatch) {
          return objects.readStart(bucket, key, versionId, maxBytes, ifNoneMatch);
        }

        @Override
        public PresignedDownload presignGet(String bucket, String key, Duration lifetime) {
          return objects.presignGet(bucket, key, lifetime);
        }

        @Override
        public PresignedUpload presignPut(
            String bucket, String key, String contentType, long contentLength, Duration lifetime) {
          return objects.presignPut(bucket, key, contentType, contentLength, lifetime);
        }
      };

  private final DerivativeCache cache =
      new DerivativeCache(counted, "derivatives", Duration.ofMinutes(5), RecentHits.none());

  private void made(String fingerprint) {
    objects.put(
        "derivatives",
        DerivativeFingerprint.objectKey(fingerprint),
        "x".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aRightGuessIsAnsweredFromTheLookupAlreadyMade() {
    made(GUESSED);
    LookAhead ahead = cache.lookAhead(Optional.of(GUESSED));

    assertTrue(ahead.lookup(GUESSED).isPresent());
    assertEquals(List.of(DerivativeFingerprint.objectKey(GUESSED)), heads, "one HEAD in all");
  }

  @Test
  void aRightGuessOfAMissIsAMissWithoutAskingAgain() {
    LookAhead ahead = cache.lookAhead(Optional.of(GUESSED));

    assertTrue(ahead.lookup(GUESSED).isEmpty());
    assertEquals(1, heads.size());
  }

  @Test
  void aWrongGuessIsDroppedAndTheConfirmedFingerprintLookedUp() {
    made(GUESSED); // the old source's derivative: must not answer for the new one
    LookAhead ahead = cache.lookAhead(Optional.of(GUESSED));

    assertTrue(ahead.lookup(CONFIRMED).isEmpty());
    assertTrue(heads.contains(DerivativeFingerprint.objectKey(CONFIRMED)));
  }

  @Test
  void noGuessStartsNothing() {
    made(CONFIRMED);
    LookAhead ahead = cache.lookAhead(Optional.empty());
    assertTrue(heads.isEmpty());

    assertTrue(ahead.lookup(CONFIRMED).isPresent());
    assertEquals(1, heads.size());
  }

  @Test
  void aFailedLookAheadFailsTheLookupAsTheLookupItselfWould() {
    failing = DerivativeFingerprint.objectKey(GUESSED);
    LookAhead ahead = cache.lookAhead(Optional.of(GUESSED));

    ObjectStoreException thrown =
        assertThrows(ObjectStoreException.class, () -> ahead.lookup(GUESSED));
    assertSame(ObjectStoreException.class, thrown.getClass());
  }
}
