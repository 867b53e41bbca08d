package dev.derive.infra.local.cli;

import java.io.IOException;
import java.nio.file.Path;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The Derive stack an operator command works on: the local cloud of a running {@code ./derive up}
 * (its endpoint and test credentials, its function log file), or a deployed stack (the SDK's
 * default credentials and the region given). Every resource name follows from the stack name as
 * {@code template.yaml} spells it: queues {@code <stack>-<name>} and {@code <stack>-<name>-dlq},
 * the table {@code <stack>-jobs}, log groups {@code /aws/lambda/<stack>-<function>}.
 *
 * @param stackName the stack's name
 * @param sqs its SQS
 * @param dynamoDb its DynamoDB
 * @param logs CloudWatch Logs of a deployed stack, {@code null} for the local cloud
 * @param localLog the local cloud's function log, {@code null} for a deployed stack
 */
public record OperatorTarget(
    String stackName,
    SqsClient sqs,
    DynamoDbClient dynamoDb,
    CloudWatchLogsClient logs,
    Path localLog)
    implements AutoCloseable {

  /** The local cloud whose state is in {@code stateDir}. */
  public static OperatorTarget local(Path stateDir) throws IOException {
    LocalCloudState state = LocalCloudState.read(stateDir);
    StaticCredentialsProvider credentials =
        StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
    Region region = Region.of(state.region());
    return new OperatorTarget(
        state.stackName(),
        SqsClient.builder()
            .endpointOverride(state.endpoint())
            .region(region)
            .credentialsProvider(credentials)
            .httpClient(UrlConnectionHttpClient.create())
            .build(),
        DynamoDbClient.builder()
            .endpointOverride(state.endpoint())
            .region(region)
            .credentialsProvider(credentials)
            .httpClient(UrlConnectionHttpClient.create())
            .build(),
        null,
        state.functionLog());
  }

  /** A deployed stack, reached with the SDK's default credentials in {@code region}. */
  public static OperatorTarget deployed(String stackName, String region) {
    Region r = Region.of(region);
    return new OperatorTarget(
        stackName,
        SqsClient.builder().region(r).httpClient(UrlConnectionHttpClient.create()).build(),
        DynamoDbClient.builder().region(r).httpClient(UrlConnectionHttpClient.create()).build(),
        CloudWatchLogsClient.builder()
            .region(r)
            .httpClient(UrlConnectionHttpClient.create())
            .build(),
        null);
  }

  /** The name of the stack's queue {@code name} (e.g. {@code image}, {@code image-dlq}). */
  public String queueName(String name) {
    return stackName + "-" + name;
  }

  /** The jobs table's name. */
  public String jobsTable() {
    return stackName + "-jobs";
  }

  @Override
  public void close() {
    sqs.close();
    dynamoDb.close();
    if (logs != null) {
      logs.close();
    }
  }
}
