package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.dispatch.StepDispatcher;
import java.time.Clock;
import java.time.Duration;

/**
 * What both halves of the job lifecycle are built from, {@link JobClaims} (the API function's) and
 * {@link JobProgress} (the progress function's), so a function's composition root and the tests
 * hand them the same parts in one value.
 *
 * @param cache where derivatives are looked up when a claim meets a SUCCEEDED job, and a
 *     dead-lettered step's output is looked for
 * @param stepLease the lease of a dispatched step, by capability: its whole retry horizon
 * @param dispatchLease the lease of a claim until its step is known to be queued
 * @param permanentFailureHold how long a permanent failure is answered before a retry may claim
 * @param notifier publishes a job's completion after the write that ended it ({@link
 *     CompletionNotifier#disabled()} for tests of the transitions alone)
 * @param lostClaims watches a claim of {@link JobClaims} that takes a lost execution over (and with
 *     it the lost execution's callbacks), before its write, and one whose write lost its answer;
 *     {@link JobProgress} watches none (a claim it makes is a claim check's, which comes again by
 *     itself)
 */
public record LifecycleParts(
    JobStore store,
    StepDispatcher dispatcher,
    DerivativeCache cache,
    StepLeases stepLease,
    Duration dispatchLease,
    Duration permanentFailureHold,
    Clock clock,
    CompletionNotifier notifier,
    LostClaimWatch lostClaims) {}
