package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.claim.ClaimResult;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.dispatch.StepMessages;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.Standing;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.StepMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The API function's half of the job lifecycle, store-agnostic (as Powertools' {@code
 * BasePersistenceStore} is to its DynamoDB adapter): a request's <b>claim</b> of a job and the
 * dispatch of its first step. A claim is a new execution with a short dispatch lease; after {@code
 * SendMessage} the lease becomes the step's retry horizon. A SUCCEEDED job is never reclaimed
 * blindly: only when its derivative has gone from the bucket, replacing exactly the record seen.
 * What a claim meeting a record does follows {@link dev.derive.coordinator.job.Standing}. The
 * progress function's half is {@link JobProgress}; the states, transitions and conditions are
 * written down in {@code docs/job-lifecycle.md}.
 */
public final class JobClaims {
  private static final System.Logger LOG = System.getLogger(JobClaims.class.getName());

  private final JobStore store;
  private final DerivativeCache cache;
  private final StepDispatch steps;
  private final Duration dispatchLease;
  private final Duration permanentFailureHold;
  private final Clock clock;
  private final CompletionNotifier notifier;
  private final LostClaimWatch lostClaims;

  /**
   * @param parts the store, dispatcher, cache, leases, clock, notifier and lost-claim watch ({@link
   *     LifecycleParts})
   */
  public JobClaims(LifecycleParts parts) {
    this(parts, parts.lostClaims());
  }

  /** As {@link #JobClaims(LifecycleParts)}, watching claims with {@code lostClaims} instead. */
  JobClaims(LifecycleParts parts, LostClaimWatch lostClaims) {
    this.store = Objects.requireNonNull(parts.store(), "store");
    this.cache = Objects.requireNonNull(parts.cache(), "cache");
    this.steps = new StepDispatch(store, parts.dispatcher(), parts.stepLease(), parts.clock());
    this.dispatchLease = parts.dispatchLease();
    this.permanentFailureHold = parts.permanentFailureHold();
    this.clock = parts.clock();
    this.notifier = Objects.requireNonNull(parts.notifier(), "notifier");
    this.lostClaims = Objects.requireNonNull(lostClaims, "lostClaims");
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
      LOG.log(
          System.Logger.Level.INFO,
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
      LOG.log(
          System.Logger.Level.WARNING,
          () -> "the claim of job " + job.jobId() + " could not be watched: " + e);
    }
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
      LOG.log(
          System.Logger.Level.WARNING,
          () -> "completion of job " + jobId + " left pending: " + e.getMessage());
    }
  }
}
