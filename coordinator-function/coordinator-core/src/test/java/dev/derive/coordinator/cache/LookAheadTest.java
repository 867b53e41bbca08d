package dev.derive.coordinator.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.derive.coordinator.lifecycle.InMemoryObjects;
import dev.derive.coordinator.plan.DerivativeFingerprint;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.storage.ObjectMetadata;
import dev.derive.storage.ObjectStore;
import dev.derive.storage.ObjectStoreException;
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

  /** The objects, counting HEADs and failing those of {@link #failing}. */
  private final InMemoryObjects objects =
      new InMemoryObjects() {
        @Override
        public Optional<ObjectMetadata> head(ObjectRef ref) {
          heads.add(ref.key());
          if (ref.key().equals(failing)) {
            throw new ObjectStoreException("HeadObject " + ref.key() + " failed", null);
          }
          return super.head(ref);
        }
      };

  private final ObjectStore counted = objects;

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
