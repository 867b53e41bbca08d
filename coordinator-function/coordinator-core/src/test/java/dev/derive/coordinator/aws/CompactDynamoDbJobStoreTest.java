package dev.derive.coordinator.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.JobStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The job store contract on DynamoDB (moto) with records written in the {@link
 * JobRecordShape#COMPACT} shape: every condition holds on an item without what the shape leaves
 * out.
 */
class CompactDynamoDbJobStoreTest extends JobStoreContract {
  private static DynamoDbClient dynamoDb;
  private static JobStore store;
  private static DynamoDbCompletionOutbox outbox;

  @BeforeAll
  static void createTable() {
    dynamoDb = LocalAws.dynamoDb();
    String table = LocalAws.createJobsTable(dynamoDb);
    store = new DynamoDbJobStore(dynamoDb, table, JobRecordShape.COMPACT);
    outbox = new DynamoDbCompletionOutbox(dynamoDb, table);
  }

  @AfterAll
  static void closeClient() {
    dynamoDb.close();
  }

  @Override
  protected void published(String jobId, String executionId) {
    assertThat(outbox.markSent(jobId, executionId)).isTrue();
  }

  @Override
  protected JobStore store() {
    return store;
  }
}
