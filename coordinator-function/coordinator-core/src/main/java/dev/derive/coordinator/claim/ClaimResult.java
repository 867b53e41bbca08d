package dev.derive.coordinator.claim;

import dev.derive.coordinator.job.Job;

/**
 * The outcome of a claim.
 *
 * @param won whether this caller now owns the job and must dispatch its first step
 * @param job the job: the caller's candidate when it won, otherwise the existing job it joins
 * @param carriedCallbacks whether a won claim replaced a lost execution and carried its callbacks
 *     over (a claimer that dies before its send then strands them: the claim is watched)
 */
public record ClaimResult(boolean won, Job job, boolean carriedCallbacks) {
  /** A claim that carried no callbacks over. */
  public ClaimResult(boolean won, Job job) {
    this(won, job, false);
  }
}
