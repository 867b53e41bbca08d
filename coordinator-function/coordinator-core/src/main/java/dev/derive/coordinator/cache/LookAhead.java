package dev.derive.coordinator.cache;

import dev.derive.storage.PresignedDownload;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A cache lookup started before the request's fingerprint is confirmed: while S3 confirms that a
 * remembered source is unchanged (a HEAD finding the entity tag it had), the HEAD of the derivative
 * its remembered identity leads to runs beside it on a virtual thread. When the confirmed
 * fingerprint is the one guessed, the answer is already there (or arrives with the GET), so a first
 * hit and a miss cost one round trip less; when the source changed, the guess is dropped and the
 * lookup made anew. The cost of a wrong guess is one HEAD.
 */
public final class LookAhead {
  private final DerivativeCache cache;
  private final String guessed;
  private final CompletableFuture<Optional<PresignedDownload>> answer;

  private LookAhead(
      DerivativeCache cache,
      String guessed,
      CompletableFuture<Optional<PresignedDownload>> answer) {
    this.cache = cache;
    this.guessed = guessed;
    this.answer = answer;
  }

  /**
   * Starts looking up {@code guessedFingerprint} in {@code cache} at once, on a virtual thread;
   * none when it is empty.
   */
  static LookAhead start(DerivativeCache cache, Optional<String> guessedFingerprint) {
    if (guessedFingerprint.isEmpty()) {
      return new LookAhead(cache, null, null);
    }
    String guessed = guessedFingerprint.get();
    CompletableFuture<Optional<PresignedDownload>> answer = new CompletableFuture<>();
    Thread.ofVirtual()
        .name("cache-look-ahead")
        .start(
            () -> {
              try {
                answer.complete(cache.lookup(guessed));
              } catch (RuntimeException e) {
                answer.completeExceptionally(e);
              }
            });
    return new LookAhead(cache, guessed, answer);
  }

  /**
   * The derivative with {@code fingerprint}, as {@link DerivativeCache#lookup} answers: the
   * look-ahead's answer when it guessed this fingerprint, else a lookup now.
   *
   * @throws dev.derive.storage.ObjectStoreException if S3 fails
   */
  public Optional<PresignedDownload> lookup(String fingerprint) {
    if (answer == null || !guessed.equals(fingerprint)) {
      return cache.lookup(fingerprint);
    }
    try {
      return answer.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return cache.lookup(fingerprint);
    }
  }
}
