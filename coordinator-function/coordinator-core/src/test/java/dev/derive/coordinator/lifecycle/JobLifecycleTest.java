package dev.derive.coordinator.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.coordinator.Jobs;
import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.claim.AmbiguousWrites;
import dev.derive.coordinator.claim.InMemoryJobStore;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.JobStoreException;
import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The job lifecycle's interleavings (issue 9), each a named test on the in-memory store, whose
 * conditions the store contract proves equal to DynamoDB's. The clock moves only when a test moves
 * it.
 */
class JobLifecycleTest {
  private static final Duration STEP_LEASE = Duration.ofSeconds(2220);
  private static final Duration DISPATCH_LEASE = Duration.ofSeconds(60);
  private static final Duration HOLD = Duration.ofDays(1);

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final JobStore store = new InMemoryJobStore();
  private final RecordingDispatcher dispatcher = new RecordingDispatcher();
  private final InMemoryObjects objects = new InMemoryObjects();
  private final JobLifecycle lifecycle =
      new JobLifecycle(
          new LifecycleParts(
              store,
              dispatcher,
              new DerivativeCache(
                  objects,
                  "derivatives",
                  Duration.ofMinutes(5),
                  dev.derive.coordinator.cache.RecentHits.none()),
              capability -> STEP_LEASE,
              DISPATCH_LEASE,
              HOLD,
              clock,
              CompletionNotifier.disabled(),
              LostClaimWatch.NONE));

  private Job candidate(String id, int steps) {
    return Jobs.claimed(id, steps, clock.instant(), DISPATCH_LEASE);
  }

  private Job job(String id) {
    return store.find(id).orElseThrow();
  }

  private static StepResult success(StepMessage step) {
    return StepResult.success(step, 10, 1000, 2000, false).withAttempt(1);
  }

  private static StepResult failure(StepMessage step, String type, boolean retryable) {
    return StepResult.failure(step, new StepError(type, "it broke", retryable), 1000, 2000)
        .withAttempt(1);
  }

  @Test
  void aWonClaimDispatchesTheFirstStepAndLeasesItsWholeRetryHorizon() {
    String id = Jobs.newId();

    ClaimOutcome outcome = lifecycle.claim(candidate(id, 1));

    assertThat(outcome.kind()).isEqualTo(ClaimOutcome.Kind.WON);
    assertThat(dispatcher.sent()).hasSize(1);
    assertThat(dispatcher.last().executionId()).isEqualTo(outcome.job().executionId());
    Job queued = job(id);
    assertThat(queued.steps().get(0).status()).isEqualTo(StepRecord.QUEUED);
    assertThat(queued.leaseExpiresAt()).isEqualTo(clock.instant().plus(STEP_LEASE));
  }

  @Test
  void identicalRequestsJoinTheExecutionInFlight() {
    String id = Jobs.newId();
    Job first = lifecycle.claim(candidate(id, 1)).job();
    clock.advance(STEP_LEASE.minusSeconds(1));

    ClaimOutcome second = lifecycle.claim(candidate(id, 1));

    assertThat(second.kind()).isEqualTo(ClaimOutcome.Kind.JOINED);
    assertThat(second.job().executionId()).isEqualTo(first.executionId());
    assertThat(dispatcher.sent()).hasSize(1);
  }

  /** Item 1: the next step's result may arrive before the sender of that step has returned. */
  @Test
  void anEarlyResultOfTheNextStepIsAppliedBecauseTheAdvanceIsRecordedBeforeTheDispatch() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 2));
    dispatcher.onSend(
        step -> {
          if (step.stepIndex() == 1) {
            assertThat(lifecycle.apply(success(step))).isEqualTo(ProgressOutcome.SUCCEEDED);
          }
        });

    assertThat(lifecycle.apply(success(dispatcher.last()))).isEqualTo(ProgressOutcome.ADVANCED);

    assertThat(job(id).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  /** Item 1: a dispatch after a recorded advance is retry-safe. */
  @Test
  void aFailedDispatchAfterTheAdvanceIsSentAgainWhenTheResultIsRedelivered() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 2));
    StepResult first = success(dispatcher.last());
    dispatcher.failNext(1);

    assertThatThrownBy(() -> lifecycle.apply(first)).isInstanceOf(DispatchFailedException.class);
    assertThat(job(id).currentStep()).isEqualTo(1);
    clock.advance(
        StepDispatch.IN_PROGRESS_WINDOW); // the redelivery comes after a visibility timeout
    assertThat(lifecycle.apply(first)).isEqualTo(ProgressOutcome.REDISPATCHED);

    assertThat(dispatcher.last().stepIndex()).isEqualTo(1);
    assertThat(job(id).steps().get(1).status()).isEqualTo(StepRecord.QUEUED);
    assertThat(lifecycle.apply(first)).as("once queued").isEqualTo(ProgressOutcome.IGNORED);
    assertThat(dispatcher.sent()).hasSize(2);
  }

  @Test
  void aDuplicateResultChangesNothingAndSendsNothing() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 1));
    StepResult result = success(dispatcher.last());
    lifecycle.apply(result);
    Job done = job(id);

    assertThat(lifecycle.apply(result)).isEqualTo(ProgressOutcome.IGNORED);

    assertThat(job(id)).isEqualTo(done);
    assertThat(dispatcher.sent()).hasSize(1);
  }

  /**
   * Issue 26: a worker that wrote its output and died before reporting, on the message's last
   * delivery: the dead letter finds the output in the bucket and applies it as the step's success,
   * so the record, its one event, GET and POST all say SUCCEEDED (it said FAILED while GET read
   * SUCCEEDED from the bucket).
   */
  @Test
  void aDeadLetteredStepWhoseOutputIsInTheBucketEndsItsJobSucceeded() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 2));
    StepMessage first = dispatcher.last();
    objects.put(first.output().bucket(), first.output().key(), new byte[] {1, 2, 3});

    assertThat(lifecycle.deadLettered(first, 3))
        .as("an intermediate: the job goes on")
        .isEqualTo(ProgressOutcome.ADVANCED);
    StepMessage second = dispatcher.last();
    objects.put(second.output().bucket(), second.output().key(), new byte[] {4, 5});

    assertThat(lifecycle.deadLettered(second, 3)).isEqualTo(ProgressOutcome.SUCCEEDED);

    Job done = job(id);
    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(done.steps().get(1).attempts()).isEqualTo(3);
    assertThat(done.steps().get(1).outputBytes()).isEqualTo(2);
    assertThat(lifecycle.deadLettered(second, 3))
        .as("the dead letter again")
        .isEqualTo(ProgressOutcome.IGNORED);
  }

  /**
   * Issue 26: a claim whose write applied but whose answer was lost may have carried a lost
   * execution's callbacks over, and a retry of the request joins it without sending: the claim is
   * watched, and its check claims the job again once the dispatch lease ran out.
   */
  @Test
  void aClaimWhoseAnswerWasLostIsWatchedAndItsCheckSendsTheStep() {
    List<Job> watched = new ArrayList<>();
    JobLifecycle losing =
        new JobLifecycle(
            new LifecycleParts(
                new AmbiguousWrites(
                    store,
                    write ->
                        watched.isEmpty()
                            ? AmbiguousWrites.Outcome.LOST
                            : AmbiguousWrites.Outcome.CLEAN),
                dispatcher,
                JobLifecycle.emptyBucket(),
                capability -> STEP_LEASE,
                DISPATCH_LEASE,
                HOLD,
                clock,
                CompletionNotifier.disabled(),
                watched::add));
    String id = Jobs.newId();
    Job candidate = candidate(id, 1);

    assertThatThrownBy(() -> losing.claim(candidate)).isInstanceOf(JobStoreException.class);
    assertThat(watched).containsExactly(candidate);
    assertThat(losing.claim(candidate(id, 1)).kind()).isEqualTo(ClaimOutcome.Kind.JOINED);
    assertThat(dispatcher.sent()).isEmpty();

    clock.advance(DISPATCH_LEASE.plusSeconds(1));
    assertThat(
            losing.checkClaim(
                new dev.derive.coordinator.claim.ClaimCheck(id, candidate.executionId())))
        .isEqualTo(ProgressOutcome.RECLAIMED);
    assertThat(dispatcher.sent()).hasSize(1);
  }

  /** Item 2. */
  @Test
  void aDeadLetteredStepFailsItsJobWithARetryableErrorNamingTheStep() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 2));
    lifecycle.apply(success(dispatcher.last()));
    StepMessage second = dispatcher.last();

    assertThat(lifecycle.deadLettered(second, 3)).isEqualTo(ProgressOutcome.FAILED);

    Job failed = job(id);
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.error().type()).isEqualTo(StepErrorTypes.DEAD_LETTERED);
    assertThat(failed.error().retryable()).isTrue();
    assertThat(failed.error().step()).isEqualTo(1);
    assertThat(failed.error().detail()).startsWith("step 2 of 2 (image) exhausted 3 deliveries");
    assertThat(lifecycle.claim(candidate(id, 2)).kind())
        .as("the next identical request runs it again")
        .isEqualTo(ClaimOutcome.Kind.WON);
  }

  /** The result whose dispatch of the next step kept failing: the job waits on nothing else. */
  @Test
  void aDeadLetteredResultWhoseNextStepWasNeverQueuedFailsItsJobAtThatStep() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 2));
    StepResult first = success(dispatcher.last());
    dispatcher.failNext(1);
    assertThatThrownBy(() -> lifecycle.apply(first)).isInstanceOf(DispatchFailedException.class);
    clock.advance(Duration.ofMinutes(15)); // five deliveries later
    dispatcher.failNext(1);

    assertThat(lifecycle.resultDeadLettered(first)).isEqualTo(ProgressOutcome.FAILED);

    assertThat(job(id).error().step()).isEqualTo(1);
    assertThat(job(id).error().retryable()).isTrue();
  }

  /**
   * Issue 26 item 8: a progress batch timed out after applying a started report and the success of
   * step 1; the started report, redelivered until it dead-lettered, belongs to a step that is done.
   */
  @Test
  void aDeadLetteredReportOfAnEarlierStepLeavesAHealthyJobRunning() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 2));
    StepMessage first = dispatcher.last();
    StepResult started = StepResult.started(first, 1500).withAttempt(1);
    lifecycle.apply(started);
    StepResult done = success(first);
    lifecycle.apply(done);

    assertThat(lifecycle.resultDeadLettered(started)).isEqualTo(ProgressOutcome.IGNORED);
    assertThat(lifecycle.resultDeadLettered(done)).isEqualTo(ProgressOutcome.IGNORED);

    Job running = job(id);
    assertThat(running.status()).isEqualTo(JobStatus.RUNNING);
    assertThat(running.currentStep()).isEqualTo(1);
    assertThat(running.steps().get(1).status()).isEqualTo(StepRecord.QUEUED);
  }

  /** A dead-lettered started report never ends a job: the step's own result or dead letter does. */
  @Test
  void aDeadLetteredStartedReportOfTheCurrentStepDoesNotFailItsJob() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 1));
    StepResult started = StepResult.started(dispatcher.last(), 1500).withAttempt(1);
    lifecycle.apply(started);

    assertThat(lifecycle.resultDeadLettered(started)).isEqualTo(ProgressOutcome.IGNORED);
    assertThat(job(id).status()).isEqualTo(JobStatus.RUNNING);
  }

  /** A success that dead-lettered because the store kept failing is applied, not failed. */
  @Test
  void aDeadLetteredSuccessOfTheCurrentStepIsApplied() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 1));

    assertThat(lifecycle.resultDeadLettered(success(dispatcher.last())))
        .isEqualTo(ProgressOutcome.SUCCEEDED);
    assertThat(job(id).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  /**
   * Issue 26 item 11: two copies of one result processed at the same time. The second finds the
   * advance recorded and the next step not yet marked queued because the first is still sending it:
   * it must not send it too (Powertools' idempotency would raise "already in progress").
   */
  @Test
  void twoCopiesOfOneResultAppliedAtTheSameTimeSendTheNextStepOnce() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 2));
    StepResult first = success(dispatcher.last());
    java.util.List<Object> secondCopy = new java.util.ArrayList<>();
    dispatcher.onSend(
        step -> {
          if (step.stepIndex() == 1 && secondCopy.isEmpty()) {
            try {
              secondCopy.add(lifecycle.apply(first));
            } catch (RuntimeException e) {
              secondCopy.add(e);
            }
          }
        });

    assertThat(lifecycle.apply(first)).isEqualTo(ProgressOutcome.ADVANCED);

    assertThat(dispatcher.sent()).extracting(StepMessage::stepIndex).containsExactly(0, 1);
    assertThat(secondCopy).singleElement().isInstanceOf(StepInProgressException.class);
    assertThat(lifecycle.apply(first)).as("redelivered later").isEqualTo(ProgressOutcome.IGNORED);
  }

  /** After the in-progress window a result whose next step was never queued sends it. */
  @Test
  void aResultRedeliveredAfterItsApplierDiedBeforeTheSendSendsTheNextStep() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 2));
    StepResult first = success(dispatcher.last());
    dispatcher.failNext(1);
    assertThatThrownBy(() -> lifecycle.apply(first)).isInstanceOf(DispatchFailedException.class);

    assertThatThrownBy(() -> lifecycle.apply(first)).isInstanceOf(StepInProgressException.class);
    clock.advance(StepDispatch.IN_PROGRESS_WINDOW);
    assertThat(lifecycle.apply(first)).isEqualTo(ProgressOutcome.REDISPATCHED);
    assertThat(dispatcher.sent()).extracting(StepMessage::stepIndex).containsExactly(0, 1);
  }

  @Test
  void aDeadLetterOfASupersededExecutionChangesNothing() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 1));
    StepMessage old = dispatcher.last();
    clock.advance(STEP_LEASE.plusSeconds(5));
    lifecycle.claim(candidate(id, 1));

    assertThat(lifecycle.deadLettered(old, 3)).isEqualTo(ProgressOutcome.SUPERSEDED);
    assertThat(job(id).status()).isEqualTo(JobStatus.PENDING);
  }

  /** Item 3: the coordinator died between the claim and SendMessage. */
  @Test
  void aClaimWhoseStepWasNeverSentIsReclaimedOnceItsDispatchLeaseEnds() {
    String id = Jobs.newId();
    Job orphan = candidate(id, 1);
    assertThat(store.claim(orphan, clock.instant(), Instant.EPOCH).won()).isTrue();
    clock.advance(DISPATCH_LEASE.minusSeconds(1));
    assertThat(lifecycle.claim(candidate(id, 1)).kind()).isEqualTo(ClaimOutcome.Kind.JOINED);

    clock.advance(Duration.ofSeconds(2));
    ClaimOutcome retry = lifecycle.claim(candidate(id, 1));

    assertThat(retry.kind()).isEqualTo(ClaimOutcome.Kind.WON);
    assertThat(retry.job().executionId()).isNotEqualTo(orphan.executionId());
    assertThat(dispatcher.sent()).hasSize(1);
  }

  @Test
  void aFailedFirstDispatchLeavesARetryableFailureThatTheNextRequestClaims() {
    String id = Jobs.newId();
    dispatcher.failNext(1);

    assertThatThrownBy(() -> lifecycle.claim(candidate(id, 1)))
        .isInstanceOf(DispatchFailedException.class);
    assertThat(job(id).error().retryable()).isTrue();

    assertThat(lifecycle.claim(candidate(id, 1)).kind()).isEqualTo(ClaimOutcome.Kind.WON);
  }

  /** Item 4: a queued step is not reclaimed while its message may still be delivered. */
  @Test
  void aQueuedStepKeepsItsClaimForItsWholeRetryHorizonAndEveryAdvanceRenewsIt() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 2));
    clock.advance(STEP_LEASE.minusSeconds(10));
    lifecycle.apply(success(dispatcher.last()));
    clock.advance(STEP_LEASE.minusSeconds(10));

    assertThat(lifecycle.claim(candidate(id, 2)).kind()).isEqualTo(ClaimOutcome.Kind.JOINED);
    clock.advance(Duration.ofSeconds(20));
    assertThat(lifecycle.claim(candidate(id, 2)).kind()).isEqualTo(ClaimOutcome.Kind.WON);
  }

  /** Item 5: an old delivery that timed out after the job was reclaimed. */
  @Test
  void aResultOfASupersededExecutionCannotFailTheNewOne() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 1));
    StepMessage old = dispatcher.last();
    clock.advance(STEP_LEASE.plusSeconds(5));
    lifecycle.claim(candidate(id, 1));
    StepMessage current = dispatcher.last();

    assertThat(lifecycle.apply(failure(old, StepErrorTypes.TIMEOUT, true)))
        .isEqualTo(ProgressOutcome.SUPERSEDED);
    assertThat(lifecycle.apply(success(current))).isEqualTo(ProgressOutcome.SUCCEEDED);

    assertThat(job(id).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  /**
   * A claim replaced an execution whose step was still in a queue's backlog; that step ran and
   * wrote the derivative. The bytes are right whichever execution made them, so the running
   * execution ends SUCCEEDED with them (and calls back whoever waits on it), instead of waiting for
   * its own copy while POST and GET already answer the derivative.
   */
  @Test
  void aSupersededExecutionsLastStepSuccessEndsTheRunningExecution() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 1));
    StepMessage old = dispatcher.last();
    clock.advance(STEP_LEASE.plusSeconds(5));
    Job current = lifecycle.claim(candidate(id, 1)).job();

    assertThat(lifecycle.apply(success(old))).isEqualTo(ProgressOutcome.SUCCEEDED);

    Job done = job(id);
    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(done.executionId()).isEqualTo(current.executionId());
    assertThat(lifecycle.apply(success(dispatcher.last()))).isEqualTo(ProgressOutcome.IGNORED);
  }

  /** Item 6: the last output landed between a request's cache miss and its claim. */
  @Test
  void aClaimThatMeetsASucceededJobWithItsDerivativeAnswersItAndNeverGoesBackwards() {
    String id = Jobs.newId();
    Job job = lifecycle.claim(candidate(id, 1)).job();
    lifecycle.apply(success(dispatcher.last()));
    objects.put(job.output().bucket(), job.output().key(), new byte[] {1});

    ClaimOutcome late = lifecycle.claim(candidate(id, 1));

    assertThat(late.kind()).isEqualTo(ClaimOutcome.Kind.MADE);
    assertThat(job(id).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(dispatcher.sent()).hasSize(1);
  }

  @Test
  void aSucceededJobWhoseDerivativeExpiredIsMadeAgainUnderANewExecution() {
    String id = Jobs.newId();
    Job first = lifecycle.claim(candidate(id, 1)).job();
    lifecycle.apply(success(dispatcher.last()));

    ClaimOutcome again = lifecycle.claim(candidate(id, 1));

    assertThat(again.kind()).isEqualTo(ClaimOutcome.Kind.WON);
    assertThat(again.job().executionId()).isNotEqualTo(first.executionId());
    assertThat(dispatcher.sent()).hasSize(2);
  }

  /** Item 7. */
  @Test
  void aRetryableFailureIsClaimedAgainByTheNextRequest() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 1));
    lifecycle.apply(failure(dispatcher.last(), StepErrorTypes.TIMEOUT, true));

    assertThat(lifecycle.claim(candidate(id, 1)).kind()).isEqualTo(ClaimOutcome.Kind.WON);
  }

  /**
   * Issue 26 item 7: an input that always times out is reclaimed at once only after its first
   * failure; each failure after that holds the next claim off longer (30 s, 2 min, 8 min, ...), so
   * requests for it, however many, cost a bounded number of executions.
   */
  @Test
  void aJobThatKeepsFailingRetryablyIsHeldWithAGrowingBackoff() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 1));
    int executions = 1;
    for (Duration hold :
        new Duration[] {
          Duration.ZERO, Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofMinutes(8)
        }) {
      lifecycle.apply(failure(dispatcher.last(), StepErrorTypes.TIMEOUT, true));
      if (!hold.isZero()) {
        ClaimOutcome held = lifecycle.claim(candidate(id, 1));
        assertThat(held.kind()).as("held for %s", hold).isEqualTo(ClaimOutcome.Kind.FAILED);
        assertThat(held.job().retryAfter()).isEqualTo(clock.instant().plus(hold));
        clock.advance(hold.minusSeconds(1));
        assertThat(lifecycle.claim(candidate(id, 1)).kind()).isEqualTo(ClaimOutcome.Kind.FAILED);
        clock.advance(Duration.ofSeconds(2));
      }
      assertThat(lifecycle.claim(candidate(id, 1)).kind()).isEqualTo(ClaimOutcome.Kind.WON);
      executions++;
    }
    assertThat(dispatcher.sent()).hasSize(executions);
    assertThat(job(id).failureStreak()).isEqualTo(4);
  }

  @Test
  void aPermanentFailureIsAnsweredAtOnceForItsHoldThenTriedAgain() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 1));
    lifecycle.apply(failure(dispatcher.last(), StepErrorTypes.CORRUPT_INPUT, false));

    clock.advance(HOLD.minusSeconds(1));
    ClaimOutcome within = lifecycle.claim(candidate(id, 1));
    assertThat(within.kind()).isEqualTo(ClaimOutcome.Kind.FAILED);
    assertThat(within.job().error())
        .isEqualTo(new JobError(StepErrorTypes.CORRUPT_INPUT, "it broke", 0, false));

    clock.advance(Duration.ofSeconds(2));
    assertThat(lifecycle.claim(candidate(id, 1)).kind()).isEqualTo(ClaimOutcome.Kind.WON);
  }

  /** Item 10. */
  @Test
  void aStartedReportMakesTheJobRunningWithItsAttemptAndSinceWhen() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 1));

    StepResult started = StepResult.started(dispatcher.last(), 1500).withAttempt(2);
    assertThat(lifecycle.apply(started)).isEqualTo(ProgressOutcome.STARTED);

    Job running = job(id);
    assertThat(running.status()).isEqualTo(JobStatus.RUNNING);
    assertThat(running.steps().get(0).status()).isEqualTo(StepRecord.RUNNING);
    assertThat(running.steps().get(0).attempts()).isEqualTo(2);
    assertThat(running.steps().get(0).startedAt()).isEqualTo(Instant.ofEpochMilli(1500));
  }

  @Test
  void aStartedReportThatArrivesAfterItsStepEndedChangesNothing() {
    String id = Jobs.newId();
    lifecycle.claim(candidate(id, 1));
    StepMessage step = dispatcher.last();
    lifecycle.apply(success(step));
    Job done = job(id);

    assertThat(lifecycle.apply(StepResult.started(step, 1500).withAttempt(1)))
        .isEqualTo(ProgressOutcome.IGNORED);
    assertThat(job(id)).isEqualTo(done);
  }

  @Test
  void aStepThatStartedBeforeItsDispatchWasMarkedStaysRunning() {
    String id = Jobs.newId();
    dispatcher.onSend(step -> lifecycle.apply(StepResult.started(step, 1500).withAttempt(1)));

    lifecycle.claim(candidate(id, 1));

    Job running = job(id);
    assertThat(running.steps().get(0).status()).isEqualTo(StepRecord.RUNNING);
    assertThat(running.leaseExpiresAt()).isEqualTo(clock.instant().plus(STEP_LEASE));
  }
}
