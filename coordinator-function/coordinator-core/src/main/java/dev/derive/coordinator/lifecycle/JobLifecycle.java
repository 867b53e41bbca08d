package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.claim.ClaimCheck;
import dev.derive.coordinator.claim.ClaimResult;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.dispatch.StepDispatcher;
import dev.derive.coordinator.dispatch.StepMessages;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.Standing;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * The job lifecycle, store-agnostic (as Powertools' {@code BasePersistenceStore} is to its DynamoDB
 * adapter): which conditional write of the {@link JobStore} each event makes, and what is sent to
 * the queues after it. The states, transitions and conditions are written down in {@code
 * docs/job-lifecycle.md}; in short:
 *
 * <ul>
 *   <li><b>claim</b> (API): a new execution with a short dispatch lease; after {@code SendMessage}
 *       the lease becomes the step's retry horizon. A SUCCEEDED job is never reclaimed blindly:
 *       only when its derivative has gone from the bucket, replacing exactly the record seen.
 *   <li><b>results</b> (progress): applied only when they belong to the job's current execution and
 *       step. A success is <em>recorded first</em> and the next step dispatched second, so a fast
 *       next result never finds the job a step behind; a repeated success whose next step was never
 *       queued dispatches it again (the dispatch after a recorded advance is retry-safe).
 *   <li><b>dead letters</b> (progress, on every dead-letter queue): a step message or step result
 *       that exhausted its deliveries fails its job with a retryable error naming the step.
 *   <li><b>completion</b>: every write that ends a job marks its completion notice pending in the
 *       same write; the {@link CompletionNotifier} publishes it right after, and again from any
 *       later message about the ended job while it is still pending ({@code
 *       docs/completion-events.md}).
 * </ul>
 *
 * <p>This class holds the claim and hands the rest to one class each: {@link StepResultTransitions}
 * (the result state machine), {@link DeadLetterFailures} and {@link StepDispatch} (sending a step
 * and the lease arithmetic).
 */
public final class JobLifecycle {
  private static final Logger LOG = Logger.getLogger(JobLifecycle.class.getName());

  private final JobStore store;
  private final DerivativeCache cache;
  private final StepDispatch steps;
  private final StepResultTransitions results;
  private final DeadLetterFailures deadLetters;
  private final Duration dispatchLease;
  private final Duration permanentFailureHold;
  private final Clock clock;
  private final CompletionNotifier notifier;
  private final LostClaimWatch lostClaims;

  /**
   * @param cache where derivatives are looked up when a claim meets a SUCCEEDED job, and a
   *     dead-lettered step's output ({@code null}: neither, for tests of the transitions alone)
   * @param stepLease the lease of a dispatched step, by capability: its whole retry horizon
   * @param dispatchLease the lease of a claim until its step is known to be queued
   * @param permanentFailureHold how long a permanent failure is answered before a retry may claim
   * @param notifier publishes a job's completion after the write that ended it, and again whenever
   *     a message about the ended job comes while its notice is still pending ({@link
   *     CompletionNotifier#disabled()} for tests of the transitions alone)
   */
  public JobLifecycle(
      JobStore store,
      StepDispatcher dispatcher,
      DerivativeCache cache,
      StepLeases stepLease,
      Duration dispatchLease,
      Duration permanentFailureHold,
      Clock clock,
      CompletionNotifier notifier) {
    this(
        store,
        dispatcher,
        cache,
        stepLease,
        dispatchLease,
        permanentFailureHold,
        clock,
        notifier,
        LostClaimWatch.NONE);
  }

  /**
   * @param lostClaims watches a claim that takes a lost execution over (and with it the lost
   *     execution's callbacks), before its write, and one whose write lost its answer
   */
  public JobLifecycle(
      JobStore store,
      StepDispatcher dispatcher,
      DerivativeCache cache,
      StepLeases stepLease,
      Duration dispatchLease,
      Duration permanentFailureHold,
      Clock clock,
      CompletionNotifier notifier,
      LostClaimWatch lostClaims) {
    this.lostClaims = lostClaims;
    this.notifier = notifier;
    this.store = store;
    this.cache = cache;
    this.steps = new StepDispatch(store, dispatcher, stepLease, clock);
    this.results = new StepResultTransitions(store, steps, clock, notifier);
    this.deadLetters = new DeadLetterFailures(store, clock, notifier, cache);
    this.dispatchLease = dispatchLease;
    this.permanentFailureHold = permanentFailureHold;
    this.clock = clock;
  }

  /** The lease a claim starts with. */
  public Duration dispatchLease() {
    return dispatchLease;
  }

  /**
   * Claims {@code candidate} (a fresh PENDING job from {@link Job#claimed}) and, when won,
   * dispatches its current step.
   *
   * @return won, joined, failed (permanently, recently) or made (the derivative just landed)
   * @throws DispatchFailedException if the step could not be queued (the job is then FAILED with a
   *     retryable error, so the next request claims it again)
   * @throws dev.derive.coordinator.claim.JobStoreException on a store failure (a claim without its
   *     dispatch lapses after the dispatch lease)
   */
  public ClaimOutcome claim(Job candidate) {
    Instant now = clock.instant();
    Instant cutoff = now.minus(permanentFailureHold);
    ClaimResult claim;
    try {
      claim = store.claim(candidate, now, cutoff);
    } catch (dev.derive.coordinator.claim.JobStoreException e) {
      // it may have applied, answer lost: a claim that no one sends (a retry joins it) is watched
      watch(candidate);
      throw e;
    }
    if (!claim.won()
        && claim.job().standing(now, permanentFailureHold) == Standing.FAILED_RECLAIMABLE) {
      // lost only because the failure's end was not yet published: published now, by this
      // announce or by the progress function between the claim's write and it (then this one
      // finds nothing pending), so claim again either way
      notifier.announce(claim.job().jobId());
      claim = store.claim(candidate, now, cutoff);
    }
    if (!claim.won() && claim.job().standing(now, permanentFailureHold) == Standing.LOST) {
      // a lost execution: taken over in one write that keeps its callbacks in the record, watched
      // before that write, so a claimer that dies right after it leaves its check behind
      watch(candidate);
      claim = store.takeOver(candidate, claim.job().executionId(), now);
    }
    if (!claim.won() && claim.job().status() == JobStatus.SUCCEEDED) {
      Job made = claim.job();
      if (cache.stepOutputExists(made.output())) {
        return new ClaimOutcome(ClaimOutcome.Kind.MADE, made);
      }
      LOG.info(
          () -> "job " + made.jobId() + " SUCCEEDED but its derivative is gone: making it again");
      claim = store.replaceSucceeded(candidate, made.executionId());
      if (!claim.won() && made.equals(claim.job()) && notifier.announce(made.jobId())) {
        claim = store.replaceSucceeded(candidate, made.executionId());
      }
      if (!claim.won() && claim.job().status() == JobStatus.SUCCEEDED) {
        return new ClaimOutcome(ClaimOutcome.Kind.MADE, claim.job());
      }
    }
    Job job = claim.job();
    if (!claim.won()) {
      boolean failed = job.status() == JobStatus.FAILED;
      return new ClaimOutcome(failed ? ClaimOutcome.Kind.FAILED : ClaimOutcome.Kind.JOINED, job);
    }
    int index = job.currentStep();
    StepMessage first = StepMessages.first(job);
    try {
      steps.send(job, index, first);
    } catch (DispatchFailedException e) {
      // its end is published below; should that fail too, the check publishes it
      watch(job);
      store.recordFailure(
          job.jobId(),
          job.executionId(),
          index,
          job.steps().get(index),
          new JobError(DispatchFailedException.KIND, e.getMessage(), index, true),
          clock.instant(),
          RetryBackoff.streakAfter(job, true),
          RetryBackoff.retryAfter(job, true, clock.instant()));
      announceBesides(job.jobId(), e);
      throw e;
    }
    return new ClaimOutcome(ClaimOutcome.Kind.WON, job);
  }

  /**
   * Has the claim {@code job} checked once its dispatch lease ran out (a {@link ClaimCheck}); one
   * that cannot be is logged (the next request for the job still ends it).
   */
  private void watch(Job job) {
    try {
      lostClaims.watch(job);
    } catch (RuntimeException e) {
      LOG.warning(() -> "the claim of job " + job.jobId() + " could not be watched: " + e);
    }
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
            dispatchLease,
            Duration.between(job.createdAt(), job.expiresAt()),
            job.traceId());
    ClaimOutcome outcome = claim(candidate);
    LOG.info(() -> "lost claim of job " + job.jobId() + " checked: " + outcome.kind());
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

  /**
   * Announces the end of a job that failed while {@code cause} is being thrown: a failure to
   * publish is logged and left pending rather than hiding {@code cause} (no message about this job
   * will come again, so the notice may stay pending until the job is claimed again; see {@code
   * docs/completion-events.md}).
   */
  private void announceBesides(String jobId, RuntimeException cause) {
    try {
      notifier.announce(jobId);
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
      LOG.warning(() -> "completion of job " + jobId + " left pending: " + e.getMessage());
    }
  }
}
