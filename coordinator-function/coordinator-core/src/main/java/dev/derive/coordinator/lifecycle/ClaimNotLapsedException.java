package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.claim.ClaimCheck;
import java.time.Instant;

/**
 * A {@link ClaimCheck} came before the claim's lease ran out: the claimer may still send its step.
 * The check is delivered again later (a batch item failure).
 */
public final class ClaimNotLapsedException extends RuntimeException {
  public ClaimNotLapsedException(String jobId, Instant leaseExpiresAt) {
    super("the claim of job " + jobId + " lasts until " + leaseExpiresAt + ": checked again later");
  }
}
