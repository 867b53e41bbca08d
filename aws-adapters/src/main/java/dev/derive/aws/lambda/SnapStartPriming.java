package dev.derive.aws.lambda;

import java.util.Objects;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * The one way a Derive function primes its Lambda SnapStart snapshot (CRaC {@code
 * beforeCheckpoint}, see the Quarkus "AWS Lambda SnapStart" guide); each function declares only
 * what it primes, as a {@link Primer}, from a CDI bean that observes {@code
 * jakarta.enterprise.event.Startup} and keeps the returned registration (CRaC may hold resources
 * weakly).
 *
 * <p>What belongs in a primer: building the SDK clients (by injecting the beans that own them) and
 * running a representative piece of work through the function's libraries (Jackson, the validator,
 * a capability's probe), so their classes and caches are in the snapshot. What does not: anything
 * unique or secret (no request reaches AWS, so no connection is opened and no credentials are
 * resolved; no id or random value is generated), since every restored instance shares it. The one
 * exception, and why it is harmless, is in {@code ProgressPriming}: the upload-events presets.
 * Nothing is renewed after a restore: the SDK resolves credentials and opens connections on first
 * use.
 */
public final class SnapStartPriming implements Resource {

  /** What a function runs before its snapshot. */
  @FunctionalInterface
  public interface Primer {
    /**
     * Warms the function.
     *
     * @throws Exception if it cannot (a broken build, which should fail the deployment)
     */
    void prime() throws Exception;
  }

  private final Primer primer;

  private SnapStartPriming(Primer primer) {
    this.primer = Objects.requireNonNull(primer, "primer");
  }

  /**
   * Registers {@code primer} to run before the snapshot is taken.
   *
   * @return the registration; the caller keeps a reference to it for the process's lifetime
   */
  public static SnapStartPriming register(Primer primer) {
    SnapStartPriming registration = new SnapStartPriming(primer);
    Core.getGlobalContext().register(registration);
    return registration;
  }

  /** Runs the primer now, as before a snapshot (for tests and for {@link #beforeCheckpoint}). */
  public void prime() throws Exception {
    primer.prime();
  }

  @Override
  public void beforeCheckpoint(Context<? extends Resource> context) throws Exception {
    prime();
  }

  @Override
  public void afterRestore(Context<? extends Resource> context) {
    // Nothing to renew: the SDK resolves credentials and opens connections on first use.
  }
}
