package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.job.Job;

/**
 * What a request's claim came to.
 *
 * @param kind what happened
 * @param job the job won or joined (for {@link Kind#MADE}, the SUCCEEDED job whose derivative is
 *     now in the bucket)
 */
public record ClaimOutcome(Kind kind, Job job) {
  /** The kinds of outcome. */
  public enum Kind {
    /** This request claimed the job as a new execution; its first step was dispatched. */
    WON,
    /** Another request's execution is in flight; this one joins it. */
    JOINED,
    /** The job failed permanently, recently: the request is answered with that error. */
    FAILED,
    /** The derivative was made between the cache lookup and the claim: answer it. */
    MADE
  }
}
