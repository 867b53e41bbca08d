package dev.derive.coordinator.service;

import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.cache.LookAhead;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.identity.SourceInspector;
import dev.derive.coordinator.job.DerivativeNotReadyException;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.JobFailedException;
import dev.derive.coordinator.job.JobNotFoundException;
import dev.derive.coordinator.job.JobView;
import dev.derive.coordinator.job.Submission;
import dev.derive.coordinator.lifecycle.ClaimOutcome;
import dev.derive.coordinator.lifecycle.JobClaims;
import dev.derive.coordinator.plan.DerivativeFingerprint;
import dev.derive.coordinator.plan.Plan;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.validate.DerivativeRequest;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.telemetry.Correlation;
import dev.derive.protocol.telemetry.EmbeddedMetrics;
import dev.derive.protocol.telemetry.Metric;
import dev.derive.storage.PresignedDownload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The coordinator's answer to the API, following one request through validate, identity, plan,
 * cache, claim and dispatch. A cache hit returns at once without touching the jobs table or a
 * queue; a miss claims the job through the {@link JobClaims} (or joins the one in flight, or meets
 * its recent permanent failure) and, when it won the claim, dispatches the first step. What a job
 * reads as afterwards ({@code GET}) is {@link DerivativeStatusReader}'s.
 */
public final class DerivativeService {
  private static final System.Logger LOG = System.getLogger(DerivativeService.class.getName());

  private final SourceInspector inspector;
  private final Planner planner;
  private final DerivativeCache cache;
  private final JobClaims lifecycle;
  private final DerivativeStatusReader reader;
  private final Duration retention;
  private final Clock clock;
  private final RecentObjects objects;
  private final EmbeddedMetrics metrics = EmbeddedMetrics.standardOutput();

  /**
   * @param lifecycle the claim and dispatch protocol on the jobs table and the queues
   * @param stepTimeout the longest one delivery of a step of a capability may take (its worker's
   *     function timeout), after which a RUNNING step reads overdue
   * @param retention how long job records are kept ({@code JOB_RETENTION_SECONDS})
   */
  public DerivativeService(
      SourceInspector inspector,
      Planner planner,
      DerivativeCache cache,
      JobStore store,
      JobClaims lifecycle,
      Function<String, Duration> stepTimeout,
      Duration retention,
      Clock clock) {
    this.inspector = inspector;
    this.planner = planner;
    this.cache = cache;
    this.lifecycle = lifecycle;
    this.reader = new DerivativeStatusReader(cache, store, stepTimeout, clock, new RecentWaits());
    this.retention = retention;
    this.clock = clock;
    this.objects = new RecentObjects(key -> inspector.object(key), clock);
  }

  /**
   * Handles a {@code POST /v1/derivatives} request, already validated ({@link
   * dev.derive.coordinator.validate.RequestValidator}).
   *
   * @param traceId id for correlating the logs of this request's job
   * @throws dev.derive.coordinator.identity.SourceNotFoundException if the source does not exist
   * @throws dev.derive.coordinator.identity.SourceTooLargeException if the source is too large
   * @throws dev.derive.coordinator.identity.UnsupportedMediaTypeException if its content is of an
   *     unsupported media type
   * @throws dev.derive.coordinator.plan.NoConversionException if no capability reaches the target
   * @throws JobFailedException if the job failed permanently (recently): its error, at once
   * @throws DispatchFailedException if the first step could not be queued (the job is FAILED with a
   *     retryable error, so a retry claims it again)
   */
  public Submission submit(DerivativeRequest request, String traceId) {
    Duration wait = Duration.ofSeconds(request.waitSeconds());
    // The derivative's HEAD runs beside the source's confirming HEAD when the source is known,
    // and the plan made from the remembered identity stands when the source is unchanged.
    Optional<SourceIdentity> remembered = inspector.remembered(request.source());
    Optional<Plan> guessed = remembered.flatMap(known -> guess(known, request));
    LookAhead lookAhead = cache.lookAhead(guessed.map(Plan::fingerprint));
    SourceIdentity source = inspector.inspect(request.source());
    Plan plan =
        guessed.isPresent() && remembered.get().equals(source)
            ? guessed.get()
            : plan(source, request);
    Correlation.job(plan.fingerprint(), null, null, null, traceId);
    Optional<PresignedDownload> cached = lookAhead.lookup(plan.fingerprint());
    if (cached.isEmpty() && planner.mayBeIntermediate(plan)) {
      // made as the start of a longer chain: the same fingerprint, so the same bytes
      cached = cache.lookupIntermediate(plan.fingerprint());
    }
    if (cached.isPresent()) {
      return requested(
          new Submission(
              plan.fingerprint(),
              JobStatus.SUCCEEDED,
              cached.get(),
              wait,
              Submission.Outcome.CACHED));
    }
    Start start = firstMissingStep(plan);
    Instant now = clock.instant();
    Job candidate =
        Job.claimed(
            start.plan(),
            source,
            start.firstStep(),
            now,
            lifecycle.dispatchLease(),
            retention,
            traceId);
    ClaimOutcome claim = lifecycle.claim(candidate);
    Job job = claim.job();
    Correlation.put(Correlation.EXECUTION_ID, job.executionId());
    Submission answered =
        switch (claim.kind()) {
          case MADE ->
              new Submission(
                  job.jobId(),
                  JobStatus.SUCCEEDED,
                  cache.download(job.jobId()),
                  wait,
                  Submission.Outcome.CACHED);
          case FAILED -> {
            metrics.write(
                EmbeddedMetrics.event()
                    .value(Metric.REQUESTS, 1)
                    .dimension(Metric.Dimension.OUTCOME, "failed-recently"));
            throw new JobFailedException(
                job.jobId(), job.error(), DerivativeStatusReader.heldUntil(job, now));
          }
          case JOINED -> {
            LOG.log(
                System.Logger.Level.INFO,
                () -> "request joins job " + job.jobId() + " (" + job.status() + ")");
            yield new Submission(job.jobId(), job.status(), null, wait, Submission.Outcome.JOINED);
          }
          case WON ->
              new Submission(job.jobId(), job.status(), null, wait, Submission.Outcome.STARTED);
        };
    return requested(answered);
  }

  /**
   * Counts a derivative request by how it was answered ({@link Metric#REQUESTS}, outcome {@code
   * cached}, {@code joined} or {@code started}; rejections are counted by the API).
   */
  private Submission requested(Submission submission) {
    if (submission.outcome() == Submission.Outcome.STARTED) {
      LOG.log(System.Logger.Level.INFO, () -> "request starts job " + submission.jobId());
    }
    metrics.write(
        EmbeddedMetrics.event()
            .value(Metric.REQUESTS, 1)
            .dimension(
                Metric.Dimension.OUTCOME,
                submission.outcome().name().toLowerCase(java.util.Locale.ROOT)));
    return submission;
  }

  private Plan plan(SourceIdentity source, DerivativeRequest request) {
    return switch (request.wanted()) {
      case DerivativeRequest.ForTarget wanted -> planner.plan(source, wanted.target(), objects);
      case DerivativeRequest.ForSteps wanted -> planner.plan(source, wanted.steps(), objects);
    };
  }

  /**
   * The plan {@code request} has if its source is still {@code remembered}; empty when that
   * identity plans to nothing (the confirmed identity's planning then says why).
   */
  private Optional<Plan> guess(SourceIdentity remembered, DerivativeRequest request) {
    try {
      return Optional.of(plan(remembered, request));
    } catch (RuntimeException noPlan) {
      return Optional.empty();
    }
  }

  /** Where a job starts: the plan (step outputs possibly re-pointed) and the first step to run. */
  private record Start(Plan plan, int firstStep) {}

  /**
   * The first step whose output is not yet in the derivatives bucket, looking from the step before
   * the last backwards: the longest prefix already made is skipped. (The last step's output is the
   * cache lookup already done.) Each step output is content-addressed by the fingerprint of the
   * source and the steps up to it, so an existing object is the right bytes: an intermediate made
   * by an earlier chain, or the same output requested earlier as a derivative in its own right (the
   * step is then re-pointed at it, so the next step reads it there). Every place is asked at once
   * ({@link DerivativeCache#stepOutputsExist}): a miss of an n-step chain costs one round trip here
   * instead of up to 2(n-1), and a HEAD or two more when a late prefix is found.
   */
  private Start firstMissingStep(Plan plan) {
    List<ObjectRef> places = new ArrayList<>();
    for (int i = plan.size() - 2; i >= 0; i--) {
      ObjectRef output = plan.step(i).output();
      places.add(output);
      places.add(DerivativeFingerprint.asDerivative(output).orElse(null));
    }
    List<Boolean> found =
        cache.stepOutputsExist(places.stream().filter(java.util.Objects::nonNull).toList());
    int answer = 0;
    for (int i = plan.size() - 2, place = 0; i >= 0; i--, place += 2) {
      if (found.get(answer++)) {
        return new Start(plan, i + 1);
      }
      ObjectRef asDerivative = places.get(place + 1);
      if (asDerivative != null && found.get(answer++)) {
        return new Start(plan.withStepOutput(i, asDerivative), i + 1);
      }
    }
    return new Start(plan, 0);
  }

  /**
   * The bytes of the derivative {@code request} asks for when it has been made already and holds at
   * most {@code maxBytes} bytes; never starts a job. For what the API reads itself (an image URL's
   * placeholder, drawn from a source's small JSON derivative).
   *
   * @throws dev.derive.coordinator.CoordinatorException as {@link #submit} does for the source and
   *     the plan (missing source, no conversion …)
   */
  public Optional<byte[]> madeContent(DerivativeRequest request, int maxBytes) {
    Plan plan = plan(inspector.inspect(request.source()), request);
    return cache.read(plan.fingerprint(), maxBytes);
  }

  /**
   * Waits until job {@code id} has ended (SUCCEEDED or FAILED) or {@code wait} has passed, reading
   * its record at once and then as {@code schedule} says ({@link PollSchedule#WAITING_REQUEST}: the
   * reads and their cost).
   *
   * @return the job's view when it ended, or empty when it still runs after {@code wait}
   * @throws JobNotFoundException if there is no such job
   */
  public Optional<JobView> awaitEnd(String id, Duration wait, PollSchedule schedule) {
    return reader.awaitEnd(id, wait, schedule);
  }

  /**
   * Handles {@code GET /v1/derivatives/{id}/content}: where to download the derivative.
   *
   * @throws JobNotFoundException if there is no such job or derivative
   * @throws DerivativeNotReadyException while the job is PENDING or RUNNING
   * @throws JobFailedException if the job FAILED: its own error, and the end of its backoff when a
   *     retryable failure holds it off, as a {@code POST} meeting it is answered (a client asking
   *     for the content of a password-protected PDF learns that it needs its password, not only
   *     that the job failed; one asking while a retryable failure backs off is told when to ask
   *     again, 503, not that it failed for good, 422)
   */
  public PresignedDownload content(String id) {
    JobView view = status(id);
    return switch (view.status()) {
      case SUCCEEDED -> view.download();
      case FAILED ->
          throw new JobFailedException(
              id,
              view.error() != null
                  ? view.error()
                  : new JobError("internal", "the job failed without a recorded reason", 0, false),
              view.retryAfter());
      default -> throw new DerivativeNotReadyException(id, view.status());
    };
  }

  /**
   * Handles {@code GET /v1/derivatives/{id}}: the job record when there is one, otherwise the
   * cached derivative (a cache hit is answered without a record), the intermediate included. A
   * FAILED job whose derivative exists all the same reads SUCCEEDED, so GET agrees with POST's
   * cache hit.
   *
   * @throws JobNotFoundException if {@code id} is no fingerprint, or neither exists
   */
  public JobView status(String id) {
    return reader.status(id);
  }
}
