package dev.derive.coordinator.claim;

import dev.derive.coordinator.job.Job;

/**
 * The outcome of a claim.
 *
 * @param won whether this caller now owns the job and must dispatch its first step
 * @param job the job: the caller's candidate as written when it won, otherwise the existing job
 */
public record ClaimResult(boolean won, Job job) {}
