package dev.derive.infra.endpoint;

import dev.derive.aws.AwsClients.Endpoint;
import dev.derive.aws.AwsClients.Timeouts;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * SDK clients bound to an {@link AwsEndpoint}, for tests and the local cloud (functions build their
 * own clients from the environment {@link AwsEndpoint#environment()} describes). Built the one way
 * {@link dev.derive.aws.AwsClients} documents, with its {@link dev.derive.aws.AwsClients#TOOLS}
 * timeouts and S3 path-style addressing.
 */
public final class AwsClients {
  private static final Timeouts TIMEOUTS = dev.derive.aws.AwsClients.TOOLS;

  private AwsClients() {}

  /** {@code endpoint} as the shared builder's endpoint override. */
  public static Endpoint of(AwsEndpoint endpoint) {
    return new Endpoint(
        endpoint.uri(), endpoint.region(), endpoint.accessKeyId(), endpoint.secretAccessKey());
  }

  /** An S3 client using path-style addressing against {@code endpoint}. */
  public static S3Client s3(AwsEndpoint endpoint) {
    return dev.derive.aws.AwsClients.configure(S3Client.builder(), TIMEOUTS, of(endpoint))
        .forcePathStyle(true)
        .build();
  }

  /** An S3 presigner using path-style addressing against {@code endpoint}. */
  public static S3Presigner s3Presigner(AwsEndpoint endpoint) {
    return dev.derive.aws.AwsClients.s3Presigner(true, of(endpoint));
  }

  /** An SQS client against {@code endpoint}. */
  public static SqsClient sqs(AwsEndpoint endpoint) {
    return dev.derive.aws.AwsClients.configure(SqsClient.builder(), TIMEOUTS, of(endpoint)).build();
  }

  /** A DynamoDB client against {@code endpoint}. */
  public static DynamoDbClient dynamoDb(AwsEndpoint endpoint) {
    return dev.derive.aws.AwsClients.configure(DynamoDbClient.builder(), TIMEOUTS, of(endpoint))
        .build();
  }

  /** An EventBridge client against {@code endpoint}. */
  public static EventBridgeClient eventBridge(AwsEndpoint endpoint) {
    return dev.derive.aws.AwsClients.configure(EventBridgeClient.builder(), TIMEOUTS, of(endpoint))
        .build();
  }
}
