package dev.derive.coordinator.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Jobs;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRun;
import dev.derive.protocol.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

class DynamoDbJobStoreTest {
  private static final Duration LEASE = Duration.ofSeconds(60);
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  private static DynamoDbClient dynamoDb;
  private static JobStore store;

  @BeforeAll
  static void createTable() {
    dynamoDb = LocalAws.dynamoDb();
    store = new DynamoDbJobStore(dynamoDb, LocalAws.createJobsTable(dynamoDb));
  }

  @AfterAll
  static void closeClient() {
    dynamoDb.close();
  }

  private static List<ClaimResult> claimConcurrently(String id, int threads, Instant now)
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
                  return store.claim(Jobs.claimed(id, 1, now, LEASE), now);
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

  @Test
  void fiftyConcurrentClaimsOfOneFingerprintHaveExactlyOneWinnerAndOneJobId() throws Exception {
    String id = Jobs.newId();

    List<ClaimResult> results = claimConcurrently(id, 50, T0);

    assertThat(results).filteredOn(ClaimResult::won).hasSize(1);
    assertThat(results).extracting(r -> r.job().jobId()).containsOnly(id);
    assertThat(results)
        .filteredOn(r -> !r.won())
        .extracting(r -> r.job().status())
        .containsOnly(JobStatus.PENDING);
  }

  @Test
  void aLiveLeaseIsJoinedNotTakenOver() {
    String id = Jobs.newId();
    assertThat(store.claim(Jobs.claimed(id, 1, T0, LEASE), T0).won()).isTrue();

    Instant beforeExpiry = T0.plus(LEASE).minusSeconds(1);
    ClaimResult late = store.claim(Jobs.claimed(id, 1, beforeExpiry, LEASE), beforeExpiry);

    assertThat(late.won()).isFalse();
    assertThat(late.job().createdAt()).isEqualTo(T0);
  }

  @Test
  void anExpiredLeaseIsReclaimedExactlyOnce() throws Exception {
    String id = Jobs.newId();
    assertThat(store.claim(Jobs.claimed(id, 1, T0, LEASE), T0).won()).isTrue();

    Instant afterExpiry = T0.plus(LEASE).plusSeconds(5);
    List<ClaimResult> results = claimConcurrently(id, 10, afterExpiry);

    assertThat(results).filteredOn(ClaimResult::won).hasSize(1);
    assertThat(store.find(id).orElseThrow().createdAt()).isEqualTo(afterExpiry);
  }

  @Test
  void aRetryableFailureIsReclaimedAndAPermanentOneIsJoined() {
    String retryable = Jobs.newId();
    String permanent = Jobs.newId();
    for (String id : List.of(retryable, permanent)) {
      store.claim(Jobs.claimed(id, 1, T0, LEASE), T0);
      store.recordFailure(
          id,
          0,
          StepRun.pending("image"),
          new JobError("timeout", "slow", 0, id.equals(retryable)),
          T0);
    }
    Instant later = T0.plusSeconds(1);

    assertThat(store.claim(Jobs.claimed(retryable, 1, later, LEASE), later).won()).isTrue();
    ClaimResult joined = store.claim(Jobs.claimed(permanent, 1, later, LEASE), later);
    assertThat(joined.won()).isFalse();
    assertThat(joined.job().status()).isEqualTo(JobStatus.FAILED);
    assertThat(joined.job().error()).isEqualTo(new JobError("timeout", "slow", 0, false));
  }

  @Test
  void aSucceededJobIsReclaimedBecauseItsDerivativeWentMissing() {
    String id = Jobs.newId();
    store.claim(Jobs.claimed(id, 1, T0, LEASE), T0);
    store.recordSuccess(id, 0, StepRun.pending("image"), true, T0, T0.plus(LEASE));

    assertThat(store.claim(Jobs.claimed(id, 1, T0.plusSeconds(1), LEASE), T0).won()).isTrue();
  }

  @Test
  void aJobRoundTripsThroughTheTable() {
    String id = Jobs.newId();
    Job job = Jobs.claimed(id, 2, T0, LEASE);
    store.claim(job, T0);

    assertThat(store.find(id)).hasValue(job);
    assertThat(store.find(Jobs.newId())).isEmpty();
  }
}
