package dev.derive.coordinator.preset;

import dev.derive.coordinator.validate.RequestValidator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The presets in force: the document at a {@link PresetSource}, read at start-up and again once
 * {@code ttl} has passed since the last read, so a deployer's change reaches every instance within
 * {@code ttl} without a deployment; the {@link Presets#builtIn} presets when no source is
 * configured.
 *
 * <p>At start-up a document that cannot be read or is invalid is an error (the function does not
 * start with presets it cannot honour). Later, a failed or invalid re-read keeps the presets last
 * loaded (and logs why), so a typo in the parameter never takes down the API; the next read after
 * another {@code ttl} tries again.
 */
public final class PresetCatalogue {
  private static final System.Logger LOG = System.getLogger(PresetCatalogue.class.getName());

  private final PresetSource source;
  private final RequestValidator validator;
  private final Duration ttl;
  private final Clock clock;
  private volatile Presets current;
  private volatile Instant loadedAt;

  /**
   * Loads the presets.
   *
   * @param source where the document is, or {@code null} for the built-in presets
   * @param ttl how long a read document is used before it is read again
   * @throws InvalidPresetsException if the document is invalid
   * @throws RuntimeException whatever reading it threw
   */
  public PresetCatalogue(
      PresetSource source, RequestValidator validator, Duration ttl, Clock clock) {
    this.source = source;
    this.validator = validator;
    this.ttl = ttl;
    this.clock = clock;
    this.current =
        source == null
            ? Presets.builtIn(validator)
            : Presets.parse(source.read(), source.location(), validator);
    this.loadedAt = clock.instant();
  }

  /** The presets in force, re-reading the document first when it is older than the TTL. */
  public Presets current() {
    if (source != null && !clock.instant().isBefore(loadedAt.plus(ttl))) {
      synchronized (this) {
        if (!clock.instant().isBefore(loadedAt.plus(ttl))) {
          loadedAt = clock.instant();
          try {
            current = Presets.parse(source.read(), source.location(), validator);
          } catch (RuntimeException e) {
            LOG.log(
                System.Logger.Level.WARNING,
                "keeping the presets loaded before: reading " + source.location() + " failed",
                e);
          }
        }
      }
    }
    return current;
  }
}
