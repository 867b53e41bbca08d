package dev.derive.coordinator.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Jobs;
import dev.derive.coordinator.cache.DerivativeCache;
import dev.derive.coordinator.cache.RecentHits;
import dev.derive.coordinator.claim.InMemoryJobStore;
import dev.derive.coordinator.claim.StepSuccess;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.JobView;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.lifecycle.InMemoryObjects;
import dev.derive.coordinator.plan.DerivativeFingerprint;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.StepErrorTypes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * A waiting request learns when jobs of a plan end, and reads sparsely before that: the end of a
 * job is still seen, and nothing is learned from a job that ended before the wait or failed.
 */
class DerivativeWaitTest {
  private static final Duration JOB_TAKES = Duration.ofMillis(600);

  private final Clock clock = Clock.systemUTC();

  /** When each read of the current wait was made, in nanoseconds ({@link System#nanoTime}). */
  private final List<Long> reads = new CopyOnWriteArrayList<>();

  /**
   * Opened by the first read after a job was made: its time runs from then, so a wait that starts
   * late on a busy machine never finds its job already ended (it would learn nothing from it).
   */
  private volatile CountDownLatch firstRead = new CountDownLatch(0);

  private final InMemoryJobStore store =
      new InMemoryJobStore() {
        @Override
        public Optional<Job> find(String jobId) {
          reads.add(System.nanoTime());
          firstRead.countDown();
          return super.find(jobId);
        }
      };
  private final RecentWaits recentWaits = new RecentWaits();

  /** HEADs of a derivative, counted. */
  private final List<String> heads = new CopyOnWriteArrayList<>();

  private final InMemoryObjects objects =
      new InMemoryObjects() {
        @Override
        public Optional<dev.derive.storage.ObjectMetadata> head(
            dev.derive.protocol.message.ObjectRef ref) {
          heads.add(ref.key());
          return super.head(ref);
        }
      };
  private final DerivativeStatusReader reader =
      new DerivativeStatusReader(
          new DerivativeCache(objects, "derivatives", Duration.ofMinutes(5), RecentHits.none()),
          store,
          capability -> Duration.ofMinutes(2),
          clock,
          recentWaits);

  /** A one-step image job whose result arrives {@code after} from now, on another thread. */
  private Job jobEndingAfter(Duration after, boolean succeeds) {
    return jobEndingAfter(after, succeeds, Duration.ZERO);
  }

  /**
   * The same, whose derivative (when it succeeds) lands in the bucket {@code recordedLater} before
   * its result is recorded, as the result message and the progress function's write follow the
   * worker's upload.
   */
  private Job jobEndingAfter(Duration after, boolean succeeds, Duration recordedLater) {
    Job job = Jobs.claimed(Jobs.newId(), 1, clock.instant(), Duration.ofSeconds(60));
    store.claim(job, clock.instant(), Instant.EPOCH);
    store.markDispatched(
        job.jobId(), job.executionId(), 0, clock.instant().plus(Duration.ofMinutes(30)));
    CountDownLatch read = new CountDownLatch(1);
    firstRead = read;
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                read.await();
                Thread.sleep(after);
                if (succeeds) {
                  objects.put(
                      "derivatives", DerivativeFingerprint.objectKey(job.jobId()), new byte[] {1});
                }
                Thread.sleep(recordedLater);
              } catch (InterruptedException e) {
                return;
              }
              Instant now = clock.instant();
              StepRecord run = new StepRecord("image", StepRecord.SUCCEEDED, now, now, 1, false, 1);
              if (succeeds) {
                store.recordSuccess(StepSuccess.last(job.jobId(), job.executionId(), 0, run, now));
              } else {
                store.recordFailure(
                    job.jobId(),
                    job.executionId(),
                    0,
                    run,
                    new JobError(StepErrorTypes.WORKER_FAILED, "out of memory", 0, true),
                    now,
                    1,
                    null);
              }
            });
    return job;
  }

  /**
   * Waits for a job ending after {@link #JOB_TAKES}; how many reads it made in its first {@code
   * within} (the job's end, delayed by a busy machine, then cannot change the count).
   */
  private int readsOfAWait(boolean succeeds, Duration within) {
    Job job = jobEndingAfter(JOB_TAKES, succeeds);
    reads.clear();
    long start = System.nanoTime();
    Optional<JobView> ended =
        reader.awaitEnd(job.jobId(), Duration.ofSeconds(20), PollSchedule.WAITING_REQUEST);
    assertThat(ended)
        .get()
        .extracting(JobView::status)
        .isEqualTo(succeeds ? JobStatus.SUCCEEDED : JobStatus.FAILED);
    return (int) reads.stream().filter(at -> at - start < within.toNanos()).count();
  }

  @Test
  void aPlanSeenToEndTwiceIsReadSparselyUntilItsEarliestEndAndItsEndIsStillSeen() {
    // Until 20 ms before the expected end (about JOB_TAKES): densely every 10-20 ms, ~29 reads;
    // sparsely every 100 ms, at most 6 (fewer when the machine is slow).
    Duration sparsePart = JOB_TAKES.minus(PollSchedule.WAITING_REQUEST.denseCap());
    readsOfAWait(false, sparsePart); // loads and compiles the reads: a failed job teaches nothing
    int firstWait = readsOfAWait(true, sparsePart);
    readsOfAWait(true, sparsePart);
    assertThat(recentWaits.shortest("image"))
        .get()
        .satisfies(expected -> assertThat(expected).isGreaterThan(JOB_TAKES.minusMillis(50)));

    int thirdWait = readsOfAWait(true, sparsePart);

    assertThat(thirdWait).as("reads of a wait whose plan was seen end").isLessThanOrEqualTo(7);
    assertThat(firstWait).as("reads of the first wait, in the same time").isGreaterThan(thirdWait);
  }

  @Test
  void aPlanSeenToEndIsAnsweredFromItsDerivativeBeforeTheResultIsRecorded() {
    readsOfAWait(false, JOB_TAKES); // loads and compiles the reads: a failed job teaches nothing
    readsOfAWait(true, JOB_TAKES);
    readsOfAWait(true, JOB_TAKES);
    Duration recordedLater = Duration.ofSeconds(2);
    Job job = jobEndingAfter(JOB_TAKES, true, recordedLater);

    long start = System.nanoTime();
    Optional<JobView> ended =
        reader.awaitEnd(job.jobId(), Duration.ofSeconds(20), PollSchedule.WAITING_REQUEST);
    Duration waited = Duration.ofNanos(System.nanoTime() - start);

    assertThat(ended).get().extracting(JobView::status).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(ended.get().download()).isNotNull();
    assertThat(ended.get().error()).isNull();
    assertThat(waited).as("seen before its result is recorded").isLessThan(recordedLater);
    assertThat(reader.status(job.jobId()).status())
        .as("GET reads the record until the result is recorded")
        .isEqualTo(JobStatus.PENDING);
  }

  /**
   * Issue 32 item 3: a chain's wait looks for its derivative only once the record shows its last
   * step begun; before that it reads the record, which tells when.
   */
  @Test
  void aChainsDerivativeIsNotLookedForBeforeItsLastStep() {
    Job job = Jobs.claimed(Jobs.newId(), 3, clock.instant(), Duration.ofSeconds(60));
    store.claim(job, clock.instant(), Instant.EPOCH);
    store.markDispatched(
        job.jobId(), job.executionId(), 0, clock.instant().plus(Duration.ofMinutes(30)));
    recentWaits.record("image,image,image", Duration.ofMillis(100));
    recentWaits.record("image,image,image", Duration.ofMillis(100));

    assertThat(reader.awaitEnd(job.jobId(), Duration.ofMillis(400), PollSchedule.WAITING_REQUEST))
        .isEmpty();
    assertThat(heads).as("HEADs while the record has the job at its first step").isEmpty();

    Instant now = clock.instant();
    for (int step = 0; step < 2; step++) {
      StepRecord run = new StepRecord("image", StepRecord.SUCCEEDED, now, now, 1, false, 1);
      store.recordSuccess(
          StepSuccess.advance(job.jobId(), job.executionId(), step, run, now, now.plusSeconds(60)));
    }
    assertThat(reader.awaitEnd(job.jobId(), Duration.ofMillis(150), PollSchedule.WAITING_REQUEST))
        .isEmpty();
    assertThat(heads).as("HEADs once the last step began").isNotEmpty();
  }

  @Test
  void aFailureIsStillSeenWhileTheDerivativeIsWatched() {
    readsOfAWait(true, JOB_TAKES);
    readsOfAWait(true, JOB_TAKES);

    readsOfAWait(false, JOB_TAKES);
  }

  @Test
  void nothingIsLearnedFromAJobThatEndedBeforeTheWaitOrFailed() {
    Job ended = jobEndingAfter(Duration.ZERO, true);
    while (store.find(ended.jobId()).orElseThrow().status() != JobStatus.SUCCEEDED) {
      Thread.onSpinWait();
    }
    reader.awaitEnd(ended.jobId(), Duration.ofSeconds(1), PollSchedule.WAITING_REQUEST);
    reader.awaitEnd(ended.jobId(), Duration.ofSeconds(1), PollSchedule.WAITING_REQUEST);
    readsOfAWait(false, JOB_TAKES);
    readsOfAWait(false, JOB_TAKES);

    assertThat(recentWaits.shortest("image")).isEmpty();
  }
}
