package dev.derive.coordinator.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Jobs;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.JobStoreContract;
import dev.derive.coordinator.identity.SourceIdentity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The job store contract on DynamoDB (moto): the conditions as DynamoDB evaluates them. */
class DynamoDbJobStoreTest extends JobStoreContract {
  private static DynamoDbClient dynamoDb;
  private static JobStore store;
  private static DynamoDbCompletionOutbox outbox;

  @BeforeAll
  static void createTable() {
    dynamoDb = LocalAws.dynamoDb();
    String table = LocalAws.createJobsTable(dynamoDb);
    store = new DynamoDbJobStore(dynamoDb, table);
    outbox = new DynamoDbCompletionOutbox(dynamoDb, table);
  }

  @Override
  protected void published(String jobId, String executionId) {
    org.assertj.core.api.Assertions.assertThat(outbox.markSent(jobId, executionId)).isTrue();
  }

  /**
   * Issue 26 item 10: an ended record is replaced only once its end was published, so the callbacks
   * queued with that end are never carried to the next execution as well.
   */
  @org.junit.jupiter.api.Test
  void anEndedRecordWhoseNoticeIsPendingIsNotTakenOver() {
    java.time.Instant t0 = java.time.Instant.parse("2030-01-01T00:00:00Z");
    dev.derive.coordinator.job.Job job =
        dev.derive.coordinator.Jobs.claimed(
            dev.derive.coordinator.Jobs.newId(), 1, t0, java.time.Duration.ofSeconds(60));
    store.claim(job, t0, java.time.Instant.EPOCH);
    store.recordFailure(
        job.jobId(),
        job.executionId(),
        0,
        dev.derive.coordinator.job.StepRecord.pending("image"),
        new dev.derive.coordinator.job.JobError("timeout", "slow", 0, true),
        t0,
        1,
        null);
    dev.derive.coordinator.job.Job retry =
        dev.derive.coordinator.Jobs.claimed(job.jobId(), 1, t0, java.time.Duration.ofSeconds(60));

    org.assertj.core.api.Assertions.assertThat(
            store.claim(retry, t0, java.time.Instant.EPOCH).won())
        .isFalse();
    published(job.jobId(), job.executionId());
    org.assertj.core.api.Assertions.assertThat(
            store.claim(retry, t0, java.time.Instant.EPOCH).won())
        .isTrue();
  }

  @AfterAll
  static void closeClient() {
    dynamoDb.close();
  }

  @Override
  protected JobStore store() {
    return store;
  }

  /**
   * Issue 26 item 6: a job's source is stored with what identifies it, its version and its SHA-256,
   * so anything that reads the job back (a step of the chain, an event, GET) names the same bytes.
   */
  @Test
  void aJobsSourceIsStoredWithItsVersionAndItsSha256() {
    String id = Jobs.newId();
    java.time.Instant now = java.time.Instant.parse("2030-01-01T00:00:00Z");
    dev.derive.coordinator.job.Job claimed =
        Jobs.claimed(id, 1, now, java.time.Duration.ofMinutes(5));
    SourceIdentity source =
        new SourceIdentity(
            "src", "photos/cat.jpg", "v-7", "\"etag\"", 1234, "image/jpeg", "c2hhLTI1Ng==");
    dev.derive.coordinator.job.Job job =
        dev.derive.coordinator.job.Job.claimed(
            claimed.plan(),
            source,
            now,
            java.time.Duration.ofMinutes(5),
            java.time.Duration.ofDays(1),
            "t");

    store.claim(job, now, now.minusSeconds(1));

    assertThat(store.find(id).orElseThrow().source()).isEqualTo(source);
  }
}
