package dev.derive.coordinator.url;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * The URL signing keys in force, read at start-up and again once {@code ttl} has passed, so a
 * rotation written to the secret reaches every instance within {@code ttl}. A failed re-read keeps
 * the keys read before (and logs why, never a key).
 */
public final class SigningKeySource {
  private static final System.Logger LOG = System.getLogger(SigningKeySource.class.getName());

  private final Supplier<String> read;
  private final Duration ttl;
  private final Clock clock;
  private volatile UrlSigningKeys current;
  private volatile Instant readAt;

  /**
   * Reads the keys.
   *
   * @param read returns the keys' text ({@link UrlSigningKeys#parse}), e.g. a Secrets Manager
   *     secret's SecretString
   * @throws IllegalArgumentException if the text holds a malformed key
   * @throws RuntimeException whatever {@code read} threw
   */
  public SigningKeySource(Supplier<String> read, Duration ttl, Clock clock) {
    this.read = read;
    this.ttl = ttl;
    this.clock = clock;
    this.current = UrlSigningKeys.parse(read.get());
    this.readAt = clock.instant();
  }

  /** Keys that never change (e.g. given in {@code URL_SIGNING_KEYS}), or none. */
  public static SigningKeySource fixed(UrlSigningKeys keys) {
    return new SigningKeySource(keys);
  }

  private SigningKeySource(UrlSigningKeys keys) {
    this.read = null;
    this.ttl = null;
    this.clock = null;
    this.current = keys;
    this.readAt = null;
  }

  /** The keys in force, re-read first when older than the TTL. */
  public UrlSigningKeys current() {
    if (read != null && !clock.instant().isBefore(readAt.plus(ttl))) {
      synchronized (this) {
        if (!clock.instant().isBefore(readAt.plus(ttl))) {
          readAt = clock.instant();
          try {
            current = UrlSigningKeys.parse(read.get());
          } catch (RuntimeException e) {
            LOG.log(
                System.Logger.Level.WARNING,
                "keeping the URL signing keys read before: " + e.getMessage());
          }
        }
      }
    }
    return current;
  }
}
