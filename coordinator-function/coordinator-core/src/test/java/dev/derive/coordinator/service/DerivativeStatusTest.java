package dev.derive.coordinator.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Jobs;
import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.claim.InMemoryJobStore;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.JobView;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.lifecycle.InMemoryObjects;
import dev.derive.coordinator.lifecycle.MutableClock;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.StepErrorTypes;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * What {@code GET /v1/derivatives/{id}} reads from a job record (issue 9 items 6 and 10): the
 * record, except where the bucket or the lease knows better.
 */
class DerivativeStatusTest {
  private static final Duration LEASE = Duration.ofSeconds(60);
  private static final Duration WORKER_TIMEOUT = Duration.ofSeconds(120);

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final JobStore store = new InMemoryJobStore();
  private final InMemoryObjects objects = new InMemoryObjects();
  private final DerivativeService service =
      new DerivativeService(
          null,
          null,
          new DerivativeCache(
              objects,
              "derivatives",
              Duration.ofMinutes(5),
              dev.derive.coordinator.cache.RecentHits.none()),
          store,
          null,
          capability -> WORKER_TIMEOUT,
          Duration.ofDays(1),
          clock);

  private Job claim() {
    Job job = Jobs.claimed(Jobs.newId(), 1, clock.instant(), LEASE);
    store.claim(job, clock.instant(), Instant.EPOCH);
    return job;
  }

  private void start(Job job, Instant at) {
    store.recordStarted(
        job.jobId(),
        job.executionId(),
        0,
        new StepRecord("image", StepRecord.RUNNING, at, null, 0, false, 1),
        at,
        at.plusSeconds(2220));
  }

  @Test
  void aRunningStepReadsOverdueOnceItsWorkersTimeoutHasPassed() {
    Job job = claim();
    start(job, clock.instant());

    clock.advance(WORKER_TIMEOUT.minusSeconds(1));
    JobView inTime = service.status(job.jobId());
    assertThat(inTime.status()).isEqualTo(JobStatus.RUNNING);
    assertThat(inTime.expectedBy().get(0)).isEqualTo(Instant.parse("2030-01-01T00:02:00Z"));
    assertThat(inTime.isOverdue(0)).isFalse();

    clock.advance(Duration.ofSeconds(2));
    assertThat(service.status(job.jobId()).isOverdue(0)).isTrue();
  }

  @Test
  void aJobPastItsLeaseReadsFailedAsStalledAndRetryable() {
    Job job = claim();

    clock.advance(LEASE.plusSeconds(1));
    JobView view = service.status(job.jobId());

    assertThat(view.status()).isEqualTo(JobStatus.FAILED);
    assertThat(view.error().type()).isEqualTo(StepErrorTypes.STALLED);
    assertThat(view.error().retryable()).isTrue();
    assertThat(view.error().detail()).startsWith("step 1 of 1 (image) made no progress");
  }

  @Test
  void aFailedJobWhoseDerivativeIsThereReadsSucceededAsThePostsCacheHitDoes() {
    Job job = claim();
    store.recordFailure(
        job.jobId(),
        job.executionId(),
        0,
        StepRecord.pending("image"),
        new JobError(StepErrorTypes.WORKER_FAILED, "ran out of memory", 0, true),
        clock.instant(),
        1,
        null);
    objects.put(job.output().bucket(), job.output().key(), new byte[] {1, 2});

    JobView view = service.status(job.jobId());

    assertThat(view.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(view.download()).isNotNull();
    assertThat(view.error()).isNull();
  }

  @Test
  void aClaimThatSentNoStepReadsSucceededOnceTheDerivativeIsThereAsThePostsCacheHitDoes() {
    // An earlier execution's output landed after this claim's cache check; its claimer then died
    // before sending the step (seed 62488597550612 of the randomized fault schedule).
    Job job = claim();
    assertThat(service.status(job.jobId()).status()).isEqualTo(JobStatus.PENDING);

    objects.put(job.output().bucket(), job.output().key(), new byte[] {1, 2});
    JobView view = service.status(job.jobId());

    assertThat(view.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(view.download()).isNotNull();
  }

  @Test
  void aClaimWhoseStepWasSentReadsAsRecordedWithoutAskingTheBucket() {
    Job job = claim();
    store.markDispatched(job.jobId(), job.executionId(), 0, clock.instant().plusSeconds(2220));
    objects.put(job.output().bucket(), job.output().key(), new byte[] {1, 2});

    assertThat(service.status(job.jobId()).status()).isEqualTo(JobStatus.PENDING);
  }
}
