package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.claim.ClaimCheck;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.job.Job;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The progress function's half of the job lifecycle: applies a worker's step report ({@link
 * StepResultTransitions}: a result applies only to its job's current execution and step; a success
 * is recorded first and the next step dispatched second), fails a job whose step message or result
 * was dead-lettered ({@link DeadLetterFailures}), checks a claim whose step may never have been
 * sent, and publishes a job's end ({@link CompletionNotifier}) after the write that made it. The
 * API function's half is {@link JobClaims}; {@code docs/job-lifecycle.md}.
 */
public final class JobProgress {
  private static final System.Logger LOG = System.getLogger(JobProgress.class.getName());

  private final JobStore store;
  private final JobClaims claims;
  private final StepResultTransitions results;
  private final DeadLetterFailures deadLetters;
  private final Clock clock;
  private final CompletionNotifier notifier;

  /**
   * @param parts as {@link JobClaims} takes them; its cache is where a dead-lettered step's output
   *     is looked for, and a derivative when a claim check meets a SUCCEEDED job; its notifier also
   *     publishes again whenever a message about an ended job comes while its notice is still
   *     pending. Its lost-claim watch is not used: a claim this half makes (a lost claim's check)
   *     is sent at once, and if it dies first the check, not acknowledged, comes again.
   */
  public JobProgress(LifecycleParts parts) {
    this.store = Objects.requireNonNull(parts.store(), "store");
    this.notifier = Objects.requireNonNull(parts.notifier(), "notifier");
    this.clock = parts.clock();
    this.claims = new JobClaims(parts, LostClaimWatch.NONE);
    StepDispatch steps = new StepDispatch(store, parts.dispatcher(), parts.stepLease(), clock);
    this.results = new StepResultTransitions(store, steps, clock, notifier);
    this.deadLetters = new DeadLetterFailures(store, clock, notifier, parts.cache());
  }

  /**
   * A {@link ClaimCheck} came: if the job's claim has sent no step and its lease ran out (its
   * claimer died before its {@code SendMessage}), takes the job over, as a new request would,
   * keeping the lost execution's callbacks and sending the first step; if it has sent a step,
   * nothing; if it ended, publishes its end if that is still pending. The claim need not be the
   * checked execution's: one that replaced it and died as well (this very check's reclaim, crashed
   * before its send, included) is just as orphaned, so the check stays until the job has sent a
   * step.
   *
   * @throws ClaimNotLapsedException if the claim has sent no step but its lease still runs (the
   *     check came early: deliver it again later)
   * @throws DispatchFailedException if the step could not be queued (the job is FAILED, retryable)
   * @throws dev.derive.coordinator.claim.JobStoreException on a store failure
   */
  public ProgressOutcome checkClaim(ClaimCheck check) {
    Job job = store.find(check.jobId()).orElse(null);
    if (job == null) {
      return ProgressOutcome.UNKNOWN_JOB;
    }
    if (job.status().isTerminal()) {
      // a check may be the last message about an end whose publication failed (a first step that
      // could not be queued, its announce failing too): published now if still pending
      notifier.announce(job.jobId());
      return ProgressOutcome.IGNORED;
    }
    if (!job.sentNoStep()) {
      return ProgressOutcome.IGNORED; // it went on
    }
    Instant now = clock.instant();
    if (!job.isLost(now)) {
      throw new ClaimNotLapsedException(job.jobId(), job.leaseExpiresAt());
    }
    Job candidate =
        Job.claimed(
            job.plan(),
            job.source(),
            now,
            claims.dispatchLease(),
            Duration.between(job.createdAt(), job.expiresAt()),
            job.traceId());
    ClaimOutcome outcome = claims.claim(candidate);
    LOG.log(
        System.Logger.Level.INFO,
        () -> "lost claim of job " + job.jobId() + " checked: " + outcome.kind());
    return outcome.kind() == ClaimOutcome.Kind.WON
        ? ProgressOutcome.RECLAIMED
        : ProgressOutcome.IGNORED;
  }

  /**
   * Applies a worker's report to its job; see {@link StepResultTransitions}.
   *
   * @throws dev.derive.coordinator.claim.JobStoreException if the store fails (retry the message)
   * @throws DispatchFailedException if the next step could not be sent (retry the message: the
   *     advance is recorded, and the repeated result dispatches the step)
   */
  public ProgressOutcome apply(StepResult result) {
    return results.apply(StepReport.of(result));
  }

  /**
   * A step message that exhausted its queue's deliveries and reached the dead-letter queue: if its
   * output is in the bucket (its worker wrote it and died before reporting), that is the step's
   * success; otherwise its job (if still at that step of that execution) becomes FAILED with a
   * retryable {@code dead-lettered} error naming the step.
   *
   * @param receives how often the message was delivered ({@code ApproximateReceiveCount}; 0 if
   *     unknown)
   * @throws dev.derive.storage.ObjectStoreException if the output could not be looked for
   */
  public ProgressOutcome deadLettered(StepMessage step, int receives) {
    return deadLetters.stepMessage(step, receives, results);
  }

  /**
   * A step result the progress function could not apply in all its deliveries (the store or the
   * next dispatch kept failing): applied once more, and if that fails too, its job becomes FAILED
   * with a retryable error where it still waits on the result (see {@link DeadLetterFailures}).
   */
  public ProgressOutcome resultDeadLettered(StepResult result) {
    return deadLetters.stepResult(StepReport.of(result), results);
  }
}
