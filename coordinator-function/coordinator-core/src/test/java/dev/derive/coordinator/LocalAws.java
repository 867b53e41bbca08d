package dev.derive.coordinator;

import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.AwsEndpoint;
import dev.derive.infra.endpoint.AwsEndpoints;
import java.nio.file.Path;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * One real AWS endpoint (a moto server, or {@code AWS_ENDPOINT_URL}) shared by the integration
 * tests of this module, started on first use and stopped when the JVM exits; and the coordinator's
 * resources as {@code template.yaml} shapes them, for this module's tests and (through its
 * test-jar) those of the coordinator functions.
 */
public final class LocalAws {
  private static AwsEndpoint endpoint;

  private LocalAws() {}

  /** The endpoint; fails (never skips) with a message naming what to install when none starts. */
  public static synchronized AwsEndpoint endpoint() {
    if (endpoint == null) {
      endpoint = AwsEndpoints.startDefault(Path.of("target", "moto"));
    }
    return endpoint;
  }

  /** Creates a uniquely named jobs table shaped as in {@code template.yaml}; returns its name. */
  public static String createJobsTable(DynamoDbClient dynamoDb) {
    return createJobsTable(dynamoDb, "jobs-" + UUID.randomUUID());
  }

  /** Creates the jobs table {@code name} shaped as in {@code template.yaml}; returns its name. */
  public static String createJobsTable(DynamoDbClient dynamoDb, String name) {
    dynamoDb.createTable(
        b ->
            b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                    AttributeDefinition.builder()
                        .attributeName("jobId")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(
                    KeySchemaElement.builder()
                        .attributeName("jobId")
                        .keyType(KeyType.HASH)
                        .build()));
    return name;
  }

  /** Creates a queue and returns its URL. */
  public static String createQueue(SqsClient sqs) {
    return sqs.createQueue(b -> b.queueName("q-" + UUID.randomUUID())).queueUrl();
  }

  /** A DynamoDB client on the endpoint. */
  public static DynamoDbClient dynamoDb() {
    return AwsClients.dynamoDb(endpoint());
  }

  /** An SQS client on the endpoint. */
  public static SqsClient sqs() {
    return AwsClients.sqs(endpoint());
  }
}
