package dev.derive.coordinator.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Jobs;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.protocol.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The {@link JobStore} specification, run against every implementation (DynamoDB on moto, and the
 * in-memory store the lifecycle's fast tests use), so both keep the same conditions.
 */
public abstract class JobStoreContract {
  static final Duration LEASE = Duration.ofSeconds(60);
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  static final Instant NO_CUTOFF = Instant.EPOCH;

  /** The store under test. */
  protected abstract JobStore store();

  /**
   * Marks the end of job {@code jobId}'s execution published, as the completion notifier does after
   * a terminal write: an ended record is taken over only then. A store that keeps no completion
   * notice (the in-memory one) has nothing to mark.
   */
  protected void published(String jobId, String executionId) {}

  private List<ClaimResult> claimConcurrently(String id, int threads, Instant now)
      throws Exception {
    return concurrently(
        threads, () -> store().claim(Jobs.claimed(id, 1, now, LEASE), now, NO_CUTOFF));
  }

  private List<ClaimResult> takeOverConcurrently(
      String id, String lostExecutionId, int threads, Instant now) throws Exception {
    return concurrently(
        threads, () -> store().takeOver(Jobs.claimed(id, 1, now, LEASE), lostExecutionId, now));
  }

  /** {@code write}'s results on {@code threads} threads, all released at once. */
  private static List<ClaimResult> concurrently(int threads, Callable<ClaimResult> write)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<ClaimResult>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  return write.call();
                }));
      }
      start.countDown();
      List<ClaimResult> results = new ArrayList<>();
      for (Future<ClaimResult> f : futures) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private Job claim(String id, int steps, Instant now) {
    Job job = Jobs.claimed(id, steps, now, LEASE);
    assertThat(store().claim(job, now, NO_CUTOFF).won()).isTrue();
    return job;
  }

  private void fail(Job job, boolean retryable, Instant at) {
    assertThat(
            store()
                .recordFailure(
                    job.jobId(),
                    job.executionId(),
                    0,
                    StepRecord.pending("image"),
                    new JobError("timeout", "slow", 0, retryable),
                    at,
                    1,
                    null))
        .isTrue();
    published(job.jobId(), job.executionId());
  }

  @Test
  void fiftyConcurrentClaimsOfOneFingerprintHaveExactlyOneWinnerAndOneJobId() throws Exception {
    String id = Jobs.newId();

    List<ClaimResult> results = claimConcurrently(id, 50, T0);

    assertThat(results).filteredOn(ClaimResult::won).hasSize(1);
    assertThat(results).extracting(r -> r.job().jobId()).containsOnly(id);
    String winner =
        results.stream().filter(ClaimResult::won).findFirst().orElseThrow().job().executionId();
    assertThat(results)
        .filteredOn(r -> !r.won())
        .extracting(r -> r.job().executionId())
        .containsOnly(winner);
  }

  /**
   * Issue 26 item 9: the SDK retries a claim whose first attempt applied but whose answer was lost;
   * the retry finds the record it wrote itself, which is a won claim, not another's to join.
   */
  @Test
  void aClaimRetriedAfterItAppliedIsWonNotJoined() {
    String id = Jobs.newId();
    Job candidate = Jobs.claimed(id, 1, T0, LEASE);
    assertThat(store().claim(candidate, T0, NO_CUTOFF).won()).isTrue();

    ClaimResult retried = store().claim(candidate, T0, NO_CUTOFF);

    assertThat(retried.won()).isTrue();
    assertThat(retried.job().executionId()).isEqualTo(candidate.executionId());
    assertThat(store().claim(Jobs.claimed(id, 1, T0, LEASE), T0, NO_CUTOFF).won())
        .as("another request's claim still joins")
        .isFalse();
  }

  @Test
  void aLiveLeaseIsJoinedNotTakenOver() {
    String id = Jobs.newId();
    Job first = claim(id, 1, T0);

    Instant beforeExpiry = T0.plus(LEASE).minusSeconds(1);
    ClaimResult late =
        store().claim(Jobs.claimed(id, 1, beforeExpiry, LEASE), beforeExpiry, NO_CUTOFF);

    assertThat(late.won()).isFalse();
    assertThat(late.job().executionId()).isEqualTo(first.executionId());
  }

  /**
   * A lost execution (its lease ran out) is not claimed as an ended record is: the claim answers
   * lost with it, and a take-over of exactly that execution replaces it once, as a new execution
   * that keeps its failure streak.
   */
  @Test
  void anExpiredLeaseIsTakenOverExactlyOnceAsANewExecution() throws Exception {
    String id = Jobs.newId();
    Job first = claim(id, 1, T0);
    Instant afterExpiry = T0.plus(LEASE).plusSeconds(5);

    ClaimResult claim = store().claim(Jobs.claimed(id, 1, afterExpiry, LEASE), afterExpiry, T0);
    assertThat(claim.won()).as("a claim does not take a lost execution over").isFalse();
    assertThat(claim.job().isLost(afterExpiry)).isTrue();
    List<ClaimResult> results = takeOverConcurrently(id, first.executionId(), 10, afterExpiry);

    assertThat(results).filteredOn(ClaimResult::won).hasSize(1);
    Job now = store().find(id).orElseThrow();
    assertThat(now.createdAt()).isEqualTo(afterExpiry);
    assertThat(now.executionId()).isNotEqualTo(first.executionId());
    assertThat(now.status()).isEqualTo(JobStatus.PENDING);
    assertThat(results)
        .filteredOn(r -> !r.won())
        .extracting(r -> r.job().executionId())
        .containsOnly(now.executionId());
  }

  /**
   * Issue 26 item 16: the SDK retries a take-over whose first attempt applied; the retry finds the
   * record of its own execution, which is a won take-over (its step is sent), not a join.
   */
  @Test
  void aTakeOverRetriedAfterItAppliedIsWonNotJoined() {
    String id = Jobs.newId();
    Job first = claim(id, 1, T0);
    Instant afterExpiry = T0.plus(LEASE).plusSeconds(5);
    Job candidate = Jobs.claimed(id, 1, afterExpiry, LEASE);
    assertThat(store().takeOver(candidate, first.executionId(), afterExpiry).won()).isTrue();

    ClaimResult retried = store().takeOver(candidate, first.executionId(), afterExpiry);

    assertThat(retried.won()).isTrue();
    assertThat(retried.job().executionId()).isEqualTo(candidate.executionId());
    assertThat(
            store()
                .takeOver(Jobs.claimed(id, 1, afterExpiry, LEASE), first.executionId(), afterExpiry)
                .won())
        .as("another request's take-over of the same lost execution joins")
        .isFalse();
  }

  @Test
  void aLiveLeaseIsNotTakenOver() {
    String id = Jobs.newId();
    Job first = claim(id, 1, T0);
    Instant beforeExpiry = T0.plus(LEASE).minusSeconds(1);

    ClaimResult late =
        store()
            .takeOver(Jobs.claimed(id, 1, beforeExpiry, LEASE), first.executionId(), beforeExpiry);

    assertThat(late.won()).isFalse();
    assertThat(late.job().executionId()).isEqualTo(first.executionId());
  }

  /** A lease is lost as {@link Job#isLost} says, to the millisecond after its whole second. */
  @Test
  void aLeaseIsTakenOverTheMomentItIsLost() {
    String id = Jobs.newId();
    Job first = claim(id, 1, T0);
    Instant justAfter = T0.plus(LEASE).plusMillis(1);
    assertThat(store().find(id).orElseThrow().isLost(justAfter)).isTrue();

    assertThat(
            store()
                .takeOver(Jobs.claimed(id, 1, justAfter, LEASE), first.executionId(), justAfter)
                .won())
        .isTrue();
  }

  /** A lost execution's failure streak is carried on by the take-over, in its one write. */
  @Test
  void aTakeOverKeepsTheLostExecutionsFailureStreak() {
    String id = Jobs.newId();
    Job job = claim(id, 1, T0);
    fail(job, true, T0); // streak 1, claimable at once
    Instant later = T0.plusSeconds(1);
    Job retry = Jobs.claimed(id, 1, later, LEASE);
    assertThat(store().claim(retry, later, NO_CUTOFF).won()).isTrue();
    assertThat(store().markDispatched(id, retry.executionId(), 0, later.plus(LEASE))).isTrue();
    Instant lapsed = later.plus(LEASE).plusSeconds(1);
    Job candidate = Jobs.claimed(id, 1, lapsed, LEASE);

    ClaimResult takeOver = store().takeOver(candidate, retry.executionId(), lapsed);

    assertThat(takeOver.won()).isTrue();
    assertThat(takeOver.job().failureStreak()).isEqualTo(1);
    Job written = store().find(id).orElseThrow();
    assertThat(written.failureStreak()).isEqualTo(1);
    assertThat(written.executionId()).isEqualTo(candidate.executionId());
    assertThat(written.status()).isEqualTo(JobStatus.PENDING);
    assertThat(written.steps()).isEqualTo(candidate.steps());
    assertThat(written.leaseExpiresAt()).isEqualTo(candidate.leaseExpiresAt());
    assertThat(written.error()).isNull();
  }

  @Test
  void aRetryableFailureIsReclaimedAtOnce() {
    Job job = claim(Jobs.newId(), 1, T0);
    fail(job, true, T0);
    Instant later = T0.plusSeconds(1);

    assertThat(store().claim(Jobs.claimed(job.jobId(), 1, later, LEASE), later, NO_CUTOFF).won())
        .isTrue();
  }

  /**
   * Issue 26 item 7: a retryable failure is taken over only after its retry-after, and the claim
   * that takes it over carries its failure streak on, so the next failure's backoff grows.
   */
  @Test
  void aRetryableFailureIsHeldUntilItsRetryAfterAndItsStreakIsCarriedOn() {
    Job job = claim(Jobs.newId(), 1, T0);
    assertThat(
            store()
                .recordFailure(
                    job.jobId(),
                    job.executionId(),
                    0,
                    StepRecord.pending("image"),
                    new JobError("timeout", "slow", 0, true),
                    T0,
                    2,
                    T0.plusSeconds(30)))
        .isTrue();
    published(job.jobId(), job.executionId());
    Instant within = T0.plusSeconds(20);
    Instant after = T0.plusSeconds(31);

    ClaimResult held =
        store().claim(Jobs.claimed(job.jobId(), 1, within, LEASE), within, NO_CUTOFF);
    ClaimResult retry = store().claim(Jobs.claimed(job.jobId(), 1, after, LEASE), after, NO_CUTOFF);

    assertThat(held.won()).isFalse();
    assertThat(held.job().retryAfter()).isEqualTo(T0.plusSeconds(30));
    assertThat(retry.won()).isTrue();
    assertThat(retry.job().failureStreak()).isEqualTo(2);
    assertThat(store().find(job.jobId()).orElseThrow().failureStreak()).isEqualTo(2);
  }

  @Test
  void aPermanentFailureIsJoinedUntilItsHoldEnds() {
    Job job = claim(Jobs.newId(), 1, T0);
    fail(job, false, T0);
    Instant later = T0.plusSeconds(10);

    ClaimResult within =
        store().claim(Jobs.claimed(job.jobId(), 1, later, LEASE), later, T0.minusSeconds(1));
    assertThat(within.won()).isFalse();
    assertThat(within.job().status()).isEqualTo(JobStatus.FAILED);
    assertThat(within.job().error()).isEqualTo(new JobError("timeout", "slow", 0, false));

    ClaimResult after =
        store().claim(Jobs.claimed(job.jobId(), 1, later, LEASE), later, T0.plusSeconds(1));
    assertThat(after.won()).isTrue();
  }

  @Test
  void aSucceededJobIsNeverTakenOverByAClaim() {
    Job job = claim(Jobs.newId(), 1, T0);
    assertThat(
            store()
                .recordSuccess(
                    StepSuccess.last(
                        job.jobId(), job.executionId(), 0, StepRecord.pending("image"), T0))
                .recorded())
        .isTrue();
    Instant muchLater = T0.plus(Duration.ofDays(30));

    ClaimResult claim =
        store().claim(Jobs.claimed(job.jobId(), 1, muchLater, LEASE), muchLater, muchLater);

    assertThat(claim.won()).isFalse();
    assertThat(claim.job().status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void aSucceededJobIsReplacedOnlyInTheExecutionSeen() {
    Job job = claim(Jobs.newId(), 1, T0);
    store()
        .recordSuccess(
            StepSuccess.last(job.jobId(), job.executionId(), 0, StepRecord.pending("image"), T0));
    published(job.jobId(), job.executionId());
    Job second = Jobs.claimed(job.jobId(), 1, T0.plusSeconds(5), LEASE);
    Job third = Jobs.claimed(job.jobId(), 1, T0.plusSeconds(5), LEASE);

    assertThat(store().replaceSucceeded(second, job.executionId()).won()).isTrue();
    ClaimResult late = store().replaceSucceeded(third, job.executionId());

    assertThat(late.won()).isFalse();
    assertThat(late.job().executionId()).isEqualTo(second.executionId());
  }

  @Test
  void stepWritesApplyOnlyAtTheStepOfTheCurrentExecution() {
    Job job = claim(Jobs.newId(), 2, T0);
    StepRecord run = StepRecord.pending("image");

    assertThat(
            store()
                .recordSuccess(StepSuccess.advance(job.jobId(), "another", 0, run, T0, T0))
                .recorded())
        .isFalse();
    assertThat(
            store()
                .recordSuccess(StepSuccess.advance(job.jobId(), job.executionId(), 1, run, T0, T0))
                .recorded())
        .isFalse();
    assertThat(
            store()
                .recordSuccess(StepSuccess.advance(job.jobId(), job.executionId(), 0, run, T0, T0))
                .recorded())
        .isTrue();
    assertThat(
            store()
                .recordSuccess(StepSuccess.advance(job.jobId(), job.executionId(), 0, run, T0, T0))
                .recorded())
        .as("a duplicate")
        .isFalse();
    assertThat(store().find(job.jobId()).orElseThrow().currentStep()).isEqualTo(1);
  }

  @Test
  void anAdvanceIsOneWriteThatReturnsTheJobAsWrittenOrAsItIs() {
    Job job = claim(Jobs.newId(), 2, T0);
    StepRecord run =
        new StepRecord("image", StepRecord.SUCCEEDED, T0, T0.plusSeconds(1), 42, false, 1);
    Instant lease = T0.plusSeconds(60);

    StepWrite advanced =
        store()
            .recordSuccess(StepSuccess.advance(job.jobId(), job.executionId(), 0, run, T0, lease));

    assertThat(advanced.recorded()).isTrue();
    Job written = advanced.current().orElseThrow();
    assertThat(written.currentStep()).isEqualTo(1);
    assertThat(written.status()).isEqualTo(JobStatus.RUNNING);
    assertThat(written.plan().size()).isEqualTo(2);
    assertThat(written.leaseExpiresAt()).isEqualTo(lease);

    StepWrite duplicate =
        store()
            .recordSuccess(StepSuccess.advance(job.jobId(), job.executionId(), 0, run, T0, lease));
    assertThat(duplicate.recorded()).as("a duplicate").isFalse();
    assertThat(duplicate.current().orElseThrow().currentStep()).isEqualTo(1);

    StepWrite last =
        store()
            .recordSuccess(StepSuccess.advance(job.jobId(), job.executionId(), 1, run, T0, lease));
    assertThat(last.recorded()).as("the last step does not advance").isFalse();
    assertThat(last.current().orElseThrow().status()).isEqualTo(JobStatus.RUNNING);
  }

  @Test
  void theLastStepsSuccessEndsTheJobInOneWrite() {
    Job job = claim(Jobs.newId(), 1, T0);
    StepRecord run =
        new StepRecord("image", StepRecord.SUCCEEDED, T0, T0.plusSeconds(1), 42, false, 1);

    assertThat(
            store()
                .recordSuccess(StepSuccess.last(job.jobId(), job.executionId(), 0, run, T0))
                .recorded())
        .isTrue();

    Job ended = store().find(job.jobId()).orElseThrow();
    assertThat(ended.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(ended.steps().get(0).status()).isEqualTo(StepRecord.SUCCEEDED);
  }

  @Test
  void aLastStepWriteThatDoesNotApplyAnswersWithTheRecordAsItIs() {
    Job twoSteps = claim(Jobs.newId(), 2, T0);
    StepRecord run =
        new StepRecord("image", StepRecord.SUCCEEDED, T0, T0.plusSeconds(1), 42, false, 1);

    StepWrite notLast =
        store()
            .recordSuccess(StepSuccess.last(twoSteps.jobId(), twoSteps.executionId(), 0, run, T0));
    assertThat(notLast.recorded()).as("step 0 of 2 is not the last").isFalse();
    assertThat(notLast.current().orElseThrow().status()).isEqualTo(JobStatus.PENDING);
    assertThat(store().find(twoSteps.jobId()).orElseThrow().currentStep()).isZero();

    Job one = claim(Jobs.newId(), 1, T0);
    assertThat(
            store()
                .recordSuccess(StepSuccess.last(one.jobId(), one.executionId(), 0, run, T0))
                .recorded())
        .isTrue();
    StepWrite duplicate =
        store().recordSuccess(StepSuccess.last(one.jobId(), one.executionId(), 0, run, T0));
    assertThat(duplicate.recorded()).as("a duplicate").isFalse();
    assertThat(duplicate.current().orElseThrow().status()).isEqualTo(JobStatus.SUCCEEDED);

    StepWrite stale =
        store().recordSuccess(StepSuccess.last(one.jobId(), "another execution", 0, run, T0));
    assertThat(stale.recorded()).isFalse();
    assertThat(stale.current().orElseThrow().executionId()).isEqualTo(one.executionId());

    assertThat(store().recordSuccess(StepSuccess.last(Jobs.newId(), "x", 0, run, T0)).current())
        .as("no such job")
        .isEmpty();
  }

  @Test
  void startedMakesTheJobRunningAndRenewsTheLease() {
    Job job = claim(Jobs.newId(), 1, T0);
    StepRecord running =
        new StepRecord("image", StepRecord.RUNNING, T0.plusSeconds(1), null, 0, false, 2);
    Instant lease = T0.plusSeconds(3000);

    assertThat(store().recordStarted(job.jobId(), job.executionId(), 0, running, T0, lease))
        .isTrue();

    Job now = store().find(job.jobId()).orElseThrow();
    assertThat(now.status()).isEqualTo(JobStatus.RUNNING);
    assertThat(now.steps().get(0)).isEqualTo(running);
    assertThat(now.leaseExpiresAt()).isEqualTo(lease);
  }

  @Test
  void markDispatchedQueuesAPendingStepButLeavesAStartedOneAlone() {
    Job queued = claim(Jobs.newId(), 1, T0);
    Instant lease = T0.plusSeconds(2000);
    assertThat(store().markDispatched(queued.jobId(), queued.executionId(), 0, lease)).isTrue();
    Job now = store().find(queued.jobId()).orElseThrow();
    assertThat(now.steps().get(0).status()).isEqualTo(StepRecord.QUEUED);
    assertThat(now.leaseExpiresAt()).isEqualTo(lease);

    Job started = claim(Jobs.newId(), 1, T0);
    StepRecord running = new StepRecord("image", StepRecord.RUNNING, T0, null, 0, false, 1);
    store().recordStarted(started.jobId(), started.executionId(), 0, running, T0, lease);
    assertThat(store().markDispatched(started.jobId(), started.executionId(), 0, T0)).isFalse();
    assertThat(store().find(started.jobId()).orElseThrow().steps().get(0)).isEqualTo(running);
  }

  @Test
  void aJobRoundTripsThroughTheStore() {
    String id = Jobs.newId();
    Job job = Jobs.claimed(id, 2, T0, LEASE);
    store().claim(job, T0, NO_CUTOFF);

    assertThat(store().find(id)).hasValue(job);
    assertThat(store().find(Jobs.newId())).isEmpty();
  }
}
