package dev.derive.coordinator.aws;

import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.JobStoreContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
}
