package dev.derive.coordinator.service;

import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.JobNotFoundException;
import dev.derive.coordinator.job.JobView;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.identity.Fingerprint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The read side of {@link DerivativeService}: what a job (or a derivative without one) reads as,
 * where the record, the bucket and the lease disagree, and the wait for a job's end. It never
 * writes.
 */
final class DerivativeStatusReader {
  private final DerivativeCache cache;
  private final JobStore store;
  private final Function<String, Duration> stepTimeout;
  private final Clock clock;
  private final RecentWaits recentWaits;

  /**
   * @param stepTimeout the longest one delivery of a step of a capability may take (its worker's
   *     function timeout), after which a RUNNING step reads overdue
   * @param recentWaits what this instance's waits have seen so far
   */
  DerivativeStatusReader(
      DerivativeCache cache,
      JobStore store,
      Function<String, Duration> stepTimeout,
      Clock clock,
      RecentWaits recentWaits) {
    this.cache = cache;
    this.store = store;
    this.stepTimeout = stepTimeout;
    this.clock = clock;
    this.recentWaits = recentWaits;
  }

  /**
   * See {@link DerivativeService#awaitEnd}: polls {@link #status} until the job ended, sparsely
   * before the earliest end recent waits for jobs of its plan saw ({@link RecentWaits}); around
   * that end it looks for the derivative itself ({@link PollSchedule#readsDerivative}), which reads
   * SUCCEEDED as {@link #status} reads a derivative found beside its record ({@link JobView#made}).
   */
  Optional<JobView> awaitEnd(String id, Duration wait, PollSchedule schedule) {
    Instant start = clock.instant();
    Instant deadline = start.plus(wait);
    Duration interval = Duration.ZERO;
    JobView view = status(id);
    String plan = planKey(view);
    Duration expectedEnd = recentWaits.shortest(plan).orElse(null);
    Instant recordRead = start;
    boolean seenRunning = false;
    while (true) {
      Instant now = clock.instant();
      if (view.status().isTerminal()) {
        // A job that ended before this wait began tells nothing of how long its plan takes.
        if (view.status() == JobStatus.SUCCEEDED && seenRunning) {
          recentWaits.record(plan, Duration.between(start, now));
        }
        return Optional.of(view);
      }
      seenRunning = true;
      Duration left = Duration.between(now, deadline);
      if (left.isNegative() || left.isZero()) {
        return Optional.empty();
      }
      interval = schedule.next(interval, Duration.between(start, now), expectedEnd);
      try {
        Thread.sleep(interval.compareTo(left) < 0 ? interval : left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
      Instant read = clock.instant();
      if (atLastStep(view)
          && schedule.readsDerivative(
              Duration.between(start, read), Duration.between(recordRead, read), expectedEnd)) {
        // Near the expected end the bytes are watched, not the chain that records them.
        view = cache.lookup(id).map(view::made).orElse(view);
      } else {
        recordRead = read;
        view = status(id);
      }
    }
  }

  /**
   * Whether the record as last read has the job at its last step: every earlier step SUCCEEDED (a
   * one-step job always is). Before that the derivative cannot be there, so a chain's wait reads
   * the record instead of the derivative (a read is a third of a HEAD's price) and learns from it
   * when the last step begins; the progress function records each step before it sends the next, so
   * no end is seen later for it.
   */
  private static boolean atLastStep(JobView view) {
    int last = view.plan().size() - 1;
    for (int i = 0; i < last; i++) {
      if (i >= view.steps().size() || !StepRecord.SUCCEEDED.equals(view.steps().get(i).status())) {
        return false;
      }
    }
    return true;
  }

  /** The capabilities of {@code view}'s steps in order: which waits are alike. */
  private static String planKey(JobView view) {
    StringBuilder key = new StringBuilder();
    for (PlannedStep step : view.plan()) {
      key.append(key.isEmpty() ? "" : ",").append(step.capability());
    }
    return key.toString();
  }

  /**
   * See {@link DerivativeService#status}: the record, except where the lease (past it, the job
   * reads FAILED as stalled) or the bucket (a FAILED job whose derivative exists reads SUCCEEDED)
   * knows better.
   */
  JobView status(String id) {
    if (!Fingerprint.isWellFormed(id)) {
      throw new JobNotFoundException(id);
    }
    Optional<Job> found = store.find(id);
    if (found.isPresent()) {
      Job job = found.get();
      JobError error = job.error();
      var download = job.status() == JobStatus.SUCCEEDED ? cache.download(id) : null;
      JobStatus status = job.readsAs(clock.instant());
      if (status != job.status()) {
        // Lost: past its lease no message of the job can be delivered any more: say so, and let
        // the next request claim it again, rather than read PENDING or RUNNING forever.
        error = stalled(job);
      }
      JobView view =
          new JobView(
              job.jobId(),
              status,
              job.plan().steps(),
              job.steps(),
              status == JobStatus.FAILED ? error : null,
              download,
              expectedBy(job),
              clock.instant(),
              status == job.status() ? heldUntil(job, clock.instant()) : null);
      if (status == JobStatus.FAILED || job.sentNoStep()) {
        // The derivative is the truth: a worker may have written it and then died on its last
        // delivery, so the job failed although its content-addressed output is there and right.
        // Likewise a claim that sent no step yet (for milliseconds, unless its claimer died
        // before the send: then until its dispatch lease lapses) while an earlier execution's
        // output landed: a POST answers that from the bucket, and so does this.
        return cache.lookup(id).map(view::made).orElse(view);
      }
      return view;
    }
    return cache
        .lookup(id)
        .or(() -> cache.lookupIntermediate(id))
        .map(
            download ->
                new JobView(
                    id,
                    JobStatus.SUCCEEDED,
                    List.of(),
                    List.of(),
                    null,
                    download,
                    List.of(),
                    clock.instant(),
                    null))
        .orElseThrow(() -> new JobNotFoundException(id));
  }

  /**
   * When a FAILED {@code job} may be claimed again, if its retryable error holds it off until a
   * time after {@code now} (its backoff, docs/job-lifecycle.md); {@code null} when a request may
   * claim it now or its failure is permanent. One rule for every answer of that state: a {@code
   * POST} meeting it, a wait that sees it and {@code GET …/content} all answer 503 with {@code
   * Retry-After}.
   */
  static Instant heldUntil(Job job, Instant now) {
    return job.status() == JobStatus.FAILED
            && job.error() != null
            && job.error().retryable()
            && job.retryAfter() != null
            && job.retryAfter().isAfter(now)
        ? job.retryAfter()
        : null;
  }

  private static JobError stalled(Job job) {
    int index = job.currentStep();
    return new JobError(
        dev.derive.protocol.message.StepErrorTypes.STALLED,
        "step "
            + (index + 1)
            + " of "
            + job.plan().size()
            + " ("
            + job.plan().step(index).capability()
            + ") made no progress before its lease ended at "
            + job.leaseExpiresAt()
            + "; request the derivative again to retry",
        index,
        true);
  }

  /** For each RUNNING step, its start plus its worker's timeout; {@code null} for the others. */
  private List<Instant> expectedBy(Job job) {
    List<Instant> deadlines = new java.util.ArrayList<>();
    for (int i = 0; i < job.steps().size(); i++) {
      StepRecord run = job.steps().get(i);
      boolean running = StepRecord.RUNNING.equals(run.status()) && run.startedAt() != null;
      deadlines.add(running ? run.startedAt().plus(stepTimeout.apply(run.capability())) : null);
    }
    return deadlines;
  }
}
