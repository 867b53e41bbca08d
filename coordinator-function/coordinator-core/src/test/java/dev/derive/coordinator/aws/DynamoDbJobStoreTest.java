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

  @BeforeAll
  static void createTable() {
    dynamoDb = LocalAws.dynamoDb();
    store = new DynamoDbJobStore(dynamoDb, LocalAws.createJobsTable(dynamoDb));
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
