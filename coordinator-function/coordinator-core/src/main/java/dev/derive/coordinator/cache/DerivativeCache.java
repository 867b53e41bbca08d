package dev.derive.coordinator.cache;

import dev.derive.coordinator.plan.DerivativeFingerprint;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.storage.ObjectStore;
import dev.derive.storage.PresignedDownload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The result cache: the derivatives bucket itself. A derivative with fingerprint {@code fp} exists
 * iff the object {@code derivatives/<fp>} does, so a lookup is one HeadObject (none when the hit is
 * {@linkplain RecentHits recent}) and a hit is answered with a presigned GET URL; a hit touches
 * neither the jobs table nor any queue.
 */
public final class DerivativeCache {
  private final ObjectStore objects;
  private final String derivativesBucket;
  private final Duration downloadLifetime;
  private final RecentHits recentHits;

  /**
   * @param derivativesBucket bucket named by {@code DERIVATIVES_BUCKET}
   * @param downloadLifetime lifetime of the presigned URLs ({@code PRESIGNED_URL_EXPIRY_SECONDS})
   * @param recentHits the hits remembered by this instance ({@link RecentHits#none()} for none)
   * @throws IllegalArgumentException if it remembers for more than half of {@code
   *     downloadLifetime}: a download handed out again must stay valid long enough to be used
   */
  public DerivativeCache(
      ObjectStore objects,
      String derivativesBucket,
      Duration downloadLifetime,
      RecentHits recentHits) {
    this.objects = objects;
    this.derivativesBucket = derivativesBucket;
    this.downloadLifetime = downloadLifetime;
    this.recentHits = recentHits;
    if (recentHits.memory().compareTo(downloadLifetime.dividedBy(2)) > 0) {
      throw new IllegalArgumentException(
          "a hit may be remembered for at most half the download lifetime ("
              + downloadLifetime.toSeconds()
              + " s), so a remembered download stays valid long enough to use; got "
              + recentHits.memory().toSeconds()
              + " s");
    }
  }

  /**
   * Looks up the derivative with {@code fingerprint}.
   *
   * @return a download of it, or empty when it has not been made (or has expired from the bucket)
   * @throws dev.derive.storage.ObjectStoreException if S3 fails
   */
  public Optional<PresignedDownload> lookup(String fingerprint) {
    Optional<PresignedDownload> recent = recentHits.recent(fingerprint);
    if (recent.isPresent()) {
      return recent;
    }
    String key = DerivativeFingerprint.objectKey(fingerprint);
    Optional<PresignedDownload> found =
        objects.head(ObjectRef.of(derivativesBucket, key)).map(head -> download(fingerprint));
    found.ifPresent(download -> recentHits.seen(fingerprint, download));
    return found;
  }

  /**
   * Starts looking up {@code guessedFingerprint} now, beside whatever the caller does next (see
   * {@link LookAhead}); an empty guess starts nothing.
   */
  public LookAhead lookAhead(Optional<String> guessedFingerprint) {
    // A recent hit is answered without a call: nothing to start beside the GET.
    return LookAhead.start(
        this, guessedFingerprint.filter(fingerprint -> recentHits.recent(fingerprint).isEmpty()));
  }

  /**
   * Looks up the output of the steps with {@code fingerprint} made as an intermediate of a longer
   * chain, at {@code intermediates/<fingerprint>} (one HeadObject, never remembered): it is
   * content-addressed by the same fingerprint, so it is the same bytes as the derivative. It lives
   * as long as intermediates do ({@code IntermediateRetentionDays}); after that the derivative is
   * made again.
   *
   * @return a download of it, or empty when no chain has made it
   * @throws dev.derive.storage.ObjectStoreException if S3 fails
   */
  public Optional<PresignedDownload> lookupIntermediate(String fingerprint) {
    String key = DerivativeFingerprint.intermediateKey(fingerprint);
    return objects
        .head(ObjectRef.of(derivativesBucket, key))
        .map(head -> objects.presignGet(derivativesBucket, key, downloadLifetime));
  }

  /**
   * Whether the output {@code ref} of a step exists, wherever it lives: under {@code derivatives/}
   * or {@code intermediates/} (one HeadObject).
   *
   * @throws dev.derive.storage.ObjectStoreException if S3 fails
   */
  public boolean stepOutputExists(ObjectRef ref) {
    return objects.head(ref).isPresent();
  }

  /**
   * Whether each of {@code refs} exists, as {@link #stepOutputExists} answers, in the same order:
   * the HEADs side by side on virtual threads, so all of them cost one round trip.
   *
   * @throws dev.derive.storage.ObjectStoreException if S3 fails for any of them
   */
  public List<Boolean> stepOutputsExist(List<ObjectRef> refs) {
    if (refs.size() < 2) {
      return refs.stream().map(this::stepOutputExists).toList();
    }
    List<CompletableFuture<Boolean>> asked = new ArrayList<>();
    for (ObjectRef ref : refs) {
      CompletableFuture<Boolean> answer = new CompletableFuture<>();
      Thread.ofVirtual()
          .name("step-output-head")
          .start(
              () -> {
                try {
                  answer.complete(stepOutputExists(ref));
                } catch (RuntimeException e) {
                  answer.completeExceptionally(e);
                }
              });
      asked.add(answer);
    }
    List<Boolean> found = new ArrayList<>();
    for (CompletableFuture<Boolean> answer : asked) {
      try {
        found.add(answer.join());
      } catch (CompletionException e) {
        if (e.getCause() instanceof RuntimeException failure) {
          throw failure;
        }
        throw e;
      }
    }
    return found;
  }

  /**
   * The size in bytes of a step's output, empty if it is not there (one HEAD).
   *
   * @throws dev.derive.storage.ObjectStoreException if S3 fails
   */
  public java.util.OptionalLong stepOutputBytes(ObjectRef ref) {
    return objects
        .head(ref)
        .map(m -> java.util.OptionalLong.of(m.sizeBytes()))
        .orElse(java.util.OptionalLong.empty());
  }

  /**
   * The bytes of the derivative with {@code fingerprint}, if it has been made and holds at most
   * {@code maxBytes} bytes (one HEAD and one GET).
   *
   * @return its bytes, or empty when it is not there or larger
   * @throws dev.derive.storage.ObjectStoreException if S3 fails
   */
  public Optional<byte[]> read(String fingerprint, int maxBytes) {
    return objects
        .readStart(
            ObjectRef.of(derivativesBucket, DerivativeFingerprint.objectKey(fingerprint)),
            maxBytes + 1,
            null)
        .filter(start -> start.metadata().sizeBytes() <= maxBytes)
        .map(start -> start.firstBytes());
  }

  /** A download of the derivative with {@code fingerprint}, without checking that it exists. */
  public PresignedDownload download(String fingerprint) {
    return objects.presignGet(
        derivativesBucket, DerivativeFingerprint.objectKey(fingerprint), downloadLifetime);
  }
}
