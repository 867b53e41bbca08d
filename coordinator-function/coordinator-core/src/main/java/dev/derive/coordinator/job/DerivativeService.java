package dev.derive.coordinator.job;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.claim.ClaimResult;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.dispatch.StepDispatcher;
import dev.derive.coordinator.dispatch.StepMessages;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.identity.SourceInspector;
import dev.derive.coordinator.plan.Plan;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.storage.PresignedDownload;
import dev.derive.coordinator.validate.DerivativeRequest;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.identity.Fingerprint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The coordinator's answer to the API, following one request through validate, identity, plan,
 * cache, claim and dispatch. A cache hit returns at once without touching the jobs table or a
 * queue; a miss claims the job (or joins the one in flight) and, when it won the claim, dispatches
 * the first step.
 */
public final class DerivativeService {
  private static final Logger LOG = Logger.getLogger(DerivativeService.class.getName());

  private final RequestValidator validator;
  private final SourceInspector inspector;
  private final Planner planner;
  private final DerivativeCache cache;
  private final JobStore store;
  private final StepDispatcher dispatcher;
  private final Duration lease;
  private final Duration retention;
  private final Clock clock;

  /**
   * @param lease how long a claim lasts without progress ({@code JOB_LEASE_SECONDS})
   * @param retention how long job records are kept ({@code JOB_RETENTION_SECONDS})
   */
  public DerivativeService(
      RequestValidator validator,
      SourceInspector inspector,
      Planner planner,
      DerivativeCache cache,
      JobStore store,
      StepDispatcher dispatcher,
      Duration lease,
      Duration retention,
      Clock clock) {
    this.validator = validator;
    this.inspector = inspector;
    this.planner = planner;
    this.cache = cache;
    this.store = store;
    this.dispatcher = dispatcher;
    this.lease = lease;
    this.retention = retention;
    this.clock = clock;
  }

  /**
   * Handles a {@code POST /v1/derivatives} body.
   *
   * @param traceId id for correlating the logs of this request's job
   * @throws dev.derive.coordinator.validate.InvalidRequestException if the body is invalid
   * @throws dev.derive.coordinator.identity.SourceNotFoundException if the source does not exist
   * @throws dev.derive.coordinator.identity.SourceTooLargeException if the source is too large
   * @throws dev.derive.coordinator.identity.UnsupportedMediaTypeException if its content is of an
   *     unsupported media type
   * @throws dev.derive.coordinator.plan.NoConversionException if no capability reaches the target
   * @throws DispatchFailedException if the first step could not be queued (the claim is released)
   */
  public Submission submit(JsonNode body, String traceId) {
    DerivativeRequest request = validator.validate(body);
    SourceIdentity source = inspector.inspect(request.source());
    Plan plan = planner.plan(source, request.target());
    Optional<PresignedDownload> cached = cache.lookup(plan.fingerprint());
    if (cached.isPresent()) {
      return new Submission(plan.fingerprint(), JobStatus.SUCCEEDED, cached.get());
    }
    Instant now = clock.instant();
    ClaimResult claim = store.claim(Job.claimed(plan, source, now, lease, retention, traceId), now);
    Job job = claim.job();
    if (!claim.won()) {
      LOG.info(() -> "request joins job " + job.jobId() + " (" + job.status() + ")");
      return new Submission(job.jobId(), job.status(), null);
    }
    try {
      dispatcher.dispatch(StepMessages.first(job));
    } catch (DispatchFailedException e) {
      store.recordFailure(
          job.jobId(),
          0,
          job.steps().get(0),
          new JobError(DispatchFailedException.KIND, e.getMessage(), 0, true),
          clock.instant());
      throw e;
    }
    return new Submission(job.jobId(), job.status(), null);
  }

  /**
   * Handles {@code GET /v1/derivatives/{id}}: the job record when there is one, otherwise the
   * cached derivative (a cache hit is answered without a record).
   *
   * @throws JobNotFoundException if {@code id} is no fingerprint, or neither exists
   */
  public JobView status(String id) {
    if (!Fingerprint.isWellFormed(id)) {
      throw new JobNotFoundException(id);
    }
    Optional<Job> found = store.find(id);
    if (found.isPresent()) {
      Job job = found.get();
      PresignedDownload download =
          job.status() == JobStatus.SUCCEEDED ? cache.download(job.jobId()) : null;
      return new JobView(
          job.jobId(),
          job.status(),
          job.steps(),
          job.status() == JobStatus.FAILED ? job.error() : null,
          download);
    }
    return cache
        .lookup(id)
        .map(download -> new JobView(id, JobStatus.SUCCEEDED, List.of(), null, download))
        .orElseThrow(() -> new JobNotFoundException(id));
  }
}
