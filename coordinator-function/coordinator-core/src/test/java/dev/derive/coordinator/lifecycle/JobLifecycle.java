package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.cache.RecentHits;
import dev.derive.coordinator.claim.ClaimCheck;
import dev.derive.coordinator.job.Job;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.time.Duration;

/**
 * Both halves of the job lifecycle on one store, as the tests drive them: the API function's {@link
 * JobClaims} and the progress function's {@link JobProgress}, each built from the same {@link
 * LifecycleParts} as its function builds it.
 */
public final class JobLifecycle {
  private final JobClaims claims;
  private final JobProgress progress;

  public JobLifecycle(LifecycleParts parts) {
    this.claims = new JobClaims(parts);
    this.progress = new JobProgress(parts);
  }

  /** A cache over a bucket that holds nothing. */
  public static DerivativeCache emptyBucket() {
    return new DerivativeCache(
        new InMemoryObjects(), "derivatives", Duration.ofMinutes(5), RecentHits.none());
  }

  /** The API function's half. */
  public JobClaims claims() {
    return claims;
  }

  /** The progress function's half. */
  public JobProgress progress() {
    return progress;
  }

  public Duration dispatchLease() {
    return claims.dispatchLease();
  }

  public ClaimOutcome claim(Job candidate) {
    return claims.claim(candidate);
  }

  public ProgressOutcome checkClaim(ClaimCheck check) {
    return progress.checkClaim(check);
  }

  public ProgressOutcome apply(StepResult result) {
    return progress.apply(result);
  }

  public ProgressOutcome deadLettered(StepMessage step, int receives) {
    return progress.deadLettered(step, receives);
  }

  public ProgressOutcome resultDeadLettered(StepResult result) {
    return progress.resultDeadLettered(result);
  }
}
