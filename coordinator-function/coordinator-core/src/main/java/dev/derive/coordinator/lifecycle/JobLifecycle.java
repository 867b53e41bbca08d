package dev.derive.coordinator.lifecycle;

import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.claim.ClaimResult;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.StepWrite;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.dispatch.StepDispatcher;
import dev.derive.coordinator.dispatch.StepMessages;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.plan.DerivativeFingerprint;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.capability.Capabilities;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
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
 */
public final class JobLifecycle {
  private static final Logger LOG = Logger.getLogger(JobLifecycle.class.getName());

  private final JobStore store;
  private final StepDispatcher dispatcher;
  private final DerivativeCache cache;
  private final Function<String, Duration> stepLease;
  private final Duration dispatchLease;
  private final Duration permanentFailureHold;
  private final Clock clock;
  private final CompletionNotifier notifier;

  /** A lifecycle that publishes no completion events (tests of the transitions alone). */
  public JobLifecycle(
      JobStore store,
      StepDispatcher dispatcher,
      DerivativeCache cache,
      Function<String, Duration> stepLease,
      Duration dispatchLease,
      Duration permanentFailureHold,
      Clock clock) {
    this(
        store,
        dispatcher,
        cache,
        stepLease,
        dispatchLease,
        permanentFailureHold,
        clock,
        CompletionNotifier.disabled());
  }

  /**
   * @param cache where derivatives are looked up when a claim meets a SUCCEEDED job ({@code null}
   *     for the progress function, which never claims)
   * @param stepLease the lease of a dispatched step, by capability: its whole retry horizon
   * @param dispatchLease the lease of a claim until its step is known to be queued
   * @param permanentFailureHold how long a permanent failure is answered before a retry may claim
   * @param notifier publishes a job's completion after the write that ended it, and again whenever
   *     a message about the ended job comes while its notice is still pending
   */
  public JobLifecycle(
      JobStore store,
      StepDispatcher dispatcher,
      DerivativeCache cache,
      Function<String, Duration> stepLease,
      Duration dispatchLease,
      Duration permanentFailureHold,
      Clock clock,
      CompletionNotifier notifier) {
    this.notifier = notifier;
    this.store = store;
    this.dispatcher = dispatcher;
    this.cache = cache;
    this.stepLease = stepLease;
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
    ClaimResult claim = store.claim(candidate, now, now.minus(permanentFailureHold));
    if (!claim.won() && claim.job().status() == JobStatus.SUCCEEDED) {
      Job made = claim.job();
      if (cache.stepOutputExists(made.output())) {
        return new ClaimOutcome(ClaimOutcome.Kind.MADE, made);
      }
      LOG.info(
          () -> "job " + made.jobId() + " SUCCEEDED but its derivative is gone: making it again");
      claim = store.replaceSucceeded(candidate, made.executionId());
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
      dispatcher.dispatch(first);
    } catch (DispatchFailedException e) {
      store.recordFailure(
          job.jobId(),
          job.executionId(),
          index,
          job.steps().get(index),
          new JobError(DispatchFailedException.KIND, e.getMessage(), index, true),
          clock.instant());
      announceBesides(job.jobId(), e);
      throw e;
    }
    dispatched(job, index);
    return new ClaimOutcome(ClaimOutcome.Kind.WON, job);
  }

  /**
   * Applies a worker's report to its job.
   *
   * @throws dev.derive.coordinator.claim.JobStoreException if the store fails (retry the message)
   * @throws DispatchFailedException if the next step could not be sent (retry the message: the
   *     advance is recorded, and the repeated result dispatches the step)
   */
  public ProgressOutcome apply(StepResult result) {
    Optional<Job> found;
    if (endsItsJob(result)) {
      // The common end of a job in one write, no read before it; any other case is decided
      // below on the record the write that did not apply returned.
      StepWrite write =
          store.recordLastSuccess(
              result.jobId(),
              result.executionId(),
              result.stepIndex(),
              run(result, StepRecord.SUCCEEDED),
              clock.instant());
      if (write.recorded()) {
        notifier.announce(result.jobId());
        return ProgressOutcome.SUCCEEDED;
      }
      found = write.current();
    } else if (advancesItsJob(result)) {
      // Likewise the advance: the write returns the job, the next step is dispatched from it.
      Instant now = clock.instant();
      StepWrite write =
          store.recordAdvance(
              result.jobId(),
              result.executionId(),
              result.stepIndex(),
              run(result, StepRecord.SUCCEEDED),
              now,
              now.plus(longestStepLease()));
      if (write.recorded()) {
        Job job = write.current().orElseThrow();
        dispatcher.dispatch(StepMessages.of(job, result.stepIndex() + 1, result.output()));
        dispatched(job, result.stepIndex() + 1);
        return ProgressOutcome.ADVANCED;
      }
      found = write.current();
    } else {
      found = store.find(result.jobId());
    }
    if (found.isEmpty()) {
      LOG.warning(() -> "step result for unknown job " + result.jobId() + " dropped");
      return ProgressOutcome.UNKNOWN_JOB;
    }
    Job job = found.get();
    int index = result.stepIndex();
    if (!Objects.equals(result.executionId(), job.executionId())) {
      LOG.info(
          () ->
              "step result "
                  + index
                  + " of job "
                  + job.jobId()
                  + " belongs to execution "
                  + result.executionId()
                  + ", not the current "
                  + job.executionId()
                  + ": ignored");
      return ProgressOutcome.SUPERSEDED;
    }
    if (job.status().isTerminal()) {
      notifier.announce(job.jobId()); // if the write that ended it was not followed by publication
      return ignored(result, job);
    }
    if (index < 0 || index >= job.plan().size()) {
      return ignored(result, job);
    }
    Instant now = clock.instant();
    if (job.currentStep() != index) {
      return index + 1 == job.currentStep() && result.succeeded()
          ? redispatchIfNeverQueued(job, result.output())
          : ignored(result, job);
    }
    if (result.isStarted()) {
      boolean changed =
          store.recordStarted(
              job.jobId(),
              job.executionId(),
              index,
              run(result, StepRecord.RUNNING),
              now,
              now.plus(leaseOf(job, index)));
      return changed ? ProgressOutcome.STARTED : ignored(result, job);
    }
    if (!result.succeeded()) {
      StepError error = result.error();
      boolean changed =
          store.recordFailure(
              job.jobId(),
              job.executionId(),
              index,
              run(result, StepRecord.FAILED),
              new JobError(error.type(), error.detail(), index, error.retryable()),
              now);
      if (!changed) {
        return ignored(result, job);
      }
      notifier.announce(job.jobId());
      return ProgressOutcome.FAILED;
    }
    boolean last = job.plan().isLast(index);
    Duration nextLease = last ? Duration.ZERO : leaseOf(job, index + 1);
    boolean changed =
        store.recordSuccess(
            job.jobId(),
            job.executionId(),
            index,
            run(result, StepRecord.SUCCEEDED),
            last,
            now,
            now.plus(nextLease));
    if (!changed) {
      return ignored(result, job);
    }
    if (last) {
      notifier.announce(job.jobId());
      return ProgressOutcome.SUCCEEDED;
    }
    dispatcher.dispatch(StepMessages.of(job, index + 1, result.output()));
    dispatched(job, index + 1);
    return ProgressOutcome.ADVANCED;
  }

  /**
   * A step message that exhausted its queue's deliveries and reached the dead-letter queue: its job
   * (if still at that step of that execution) becomes FAILED with a retryable {@code dead-lettered}
   * error naming the step.
   *
   * @param receives how often the message was delivered ({@code ApproximateReceiveCount}; 0 if
   *     unknown)
   */
  public ProgressOutcome deadLettered(StepMessage step, int receives) {
    String detail =
        "step "
            + (step.stepIndex() + 1)
            + " of "
            + step.stepCount()
            + " ("
            + step.capability()
            + ") exhausted "
            + (receives > 0 ? receives + " deliveries" : "its deliveries")
            + " without a result: its worker crashed, ran out of memory or was stopped each time;"
            + " request the derivative again to retry";
    return failAt(
        step.jobId(),
        step.executionId(),
        step.stepIndex(),
        new JobError(StepErrorTypes.DEAD_LETTERED, detail, step.stepIndex(), true));
  }

  /**
   * A step result the progress function could not apply in all its deliveries (the store or the
   * next dispatch kept failing): its job, if still in that execution, becomes FAILED at its current
   * step with a retryable error.
   */
  public ProgressOutcome resultDeadLettered(StepResult result) {
    Optional<Job> found = store.find(result.jobId());
    if (found.isEmpty()) {
      return ProgressOutcome.UNKNOWN_JOB;
    }
    Job job = found.get();
    int index = job.currentStep();
    String detail =
        "the result of step "
            + (result.stepIndex() + 1)
            + " ("
            + result.capability()
            + ") could not be applied in any of its deliveries;"
            + " request the derivative again to retry";
    return failAt(
        job.jobId(),
        result.executionId(),
        index,
        new JobError(StepErrorTypes.DEAD_LETTERED, detail, index, true));
  }

  private ProgressOutcome failAt(String jobId, String executionId, int index, JobError error) {
    Optional<Job> found = store.find(jobId);
    if (found.isEmpty()) {
      return ProgressOutcome.UNKNOWN_JOB;
    }
    Job job = found.get();
    if (!Objects.equals(executionId, job.executionId())) {
      return ProgressOutcome.SUPERSEDED;
    }
    if (job.status().isTerminal()) {
      notifier.announce(jobId); // a dead letter may be the last message about an unpublished end
      return ProgressOutcome.IGNORED;
    }
    if (job.currentStep() != index || index >= job.steps().size()) {
      return ProgressOutcome.IGNORED;
    }
    StepRecord before = job.steps().get(index);
    Instant now = clock.instant();
    StepRecord failed =
        new StepRecord(
            before.capability(),
            StepRecord.FAILED,
            before.startedAt(),
            now,
            0,
            false,
            before.attempts());
    boolean changed = store.recordFailure(jobId, executionId, index, failed, error, now);
    if (!changed) {
      return ProgressOutcome.IGNORED;
    }
    notifier.announce(jobId);
    return ProgressOutcome.FAILED;
  }

  /** Step {@code index - 1}'s success came again: dispatch step {@code index} if never queued. */
  private ProgressOutcome redispatchIfNeverQueued(Job job, ObjectRef previousOutput) {
    int index = job.currentStep();
    if (!StepRecord.PENDING.equals(job.steps().get(index).status())) {
      return ProgressOutcome.IGNORED;
    }
    dispatcher.dispatch(StepMessages.of(job, index, previousOutput));
    dispatched(job, index);
    LOG.info(() -> "step " + index + " of job " + job.jobId() + " was never queued: dispatched");
    return ProgressOutcome.REDISPATCHED;
  }

  /**
   * After a successful {@code SendMessage}: the step is QUEUED, its lease its retry horizon. A
   * store failure here is only logged: the message is on its way, and the worker's started report
   * renews the lease as well.
   */
  private void dispatched(Job job, int index) {
    Instant leaseEnd = clock.instant().plus(leaseOf(job, index));
    try {
      store.markDispatched(job.jobId(), job.executionId(), index, leaseEnd);
    } catch (dev.derive.coordinator.claim.JobStoreException e) {
      LOG.warning(
          () ->
              "step "
                  + index
                  + " of job "
                  + job.jobId()
                  + " was sent but not marked queued: "
                  + e.getMessage());
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
      LOG.warning(() -> "completion of job " + jobId + " left pending: " + e.getMessage());
    }
  }

  private Duration leaseOf(Job job, int index) {
    return stepLease.apply(job.plan().step(index).capability());
  }

  private static ProgressOutcome ignored(StepResult result, Job job) {
    LOG.info(
        () ->
            "step result "
                + result.stepIndex()
                + " of job "
                + job.jobId()
                + " ignored: job is "
                + job.status()
                + " at step "
                + job.currentStep());
    return ProgressOutcome.IGNORED;
  }

  /**
   * Whether {@code result} reports a success that wrote the job's derivative itself ({@code
   * derivatives/<jobId>}): only the last step of a plan writes there, intermediates go elsewhere.
   * The store's write checks that it is the last step all the same.
   */
  private static boolean endsItsJob(StepResult result) {
    return finishedWithOutput(result) && writesItsDerivative(result);
  }

  /**
   * Whether {@code result} reports a success that wrote an intermediate (anything but {@code
   * derivatives/<jobId>}): not the last step, so the job advances. The store's write checks it.
   */
  private static boolean advancesItsJob(StepResult result) {
    return finishedWithOutput(result) && !writesItsDerivative(result);
  }

  private static boolean finishedWithOutput(StepResult result) {
    return result.succeeded() && !result.isStarted() && result.output() != null;
  }

  private static boolean writesItsDerivative(StepResult result) {
    return DerivativeFingerprint.objectKey(result.jobId()).equals(result.output().key());
  }

  /**
   * The lease an advance writes before it knows the next step's capability: the longest horizon of
   * any; the mark that the step is queued sets its own at once. (Only a progress function that dies
   * between the advance and the send leaves it, and then the redelivered result sends the step.)
   */
  private Duration longestStepLease() {
    return Capabilities.ALL.stream()
        .map(capability -> stepLease.apply(capability.name()))
        .max(Duration::compareTo)
        .orElseThrow();
  }

  private static StepRecord run(StepResult result, String status) {
    return new StepRecord(
        result.capability(),
        status,
        Instant.ofEpochMilli(result.startedAtMillis()),
        result.isStarted() ? null : Instant.ofEpochMilli(result.finishedAtMillis()),
        result.outputBytes(),
        result.reused(),
        result.attempt());
  }
}
