package dev.derive.coordinator.claim;

import dev.derive.coordinator.job.Job;

/**
 * Watches a claim that has sent no step when a callback is registered on it: a check ({@link
 * ClaimCheck}) reaches the progress function once the claim's dispatch lease has run out, and if
 * the claim still sent nothing (its claimer died before its {@code SendMessage}) the job is claimed
 * again there, as a new request would ({@code JobProgress.checkClaim}). Without it, a callback
 * registered on such a claim waits for a request that may never come (docs/job-lifecycle.md, "What
 * each fault does").
 */
@FunctionalInterface
public interface LostClaimWatch {
  /** None: a lost claim waits for the next request (for tests of other parts). */
  LostClaimWatch NONE = job -> {};

  /**
   * Sends the check of {@code job}'s execution, due one second after its lease.
   *
   * @throws RuntimeException if it could not be sent
   */
  void watch(Job job);
}
