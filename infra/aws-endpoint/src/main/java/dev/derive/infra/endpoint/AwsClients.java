package dev.derive.infra.endpoint;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * SDK clients bound to an {@link AwsEndpoint}, for tests and the local cloud (functions build their
 * own clients from the environment {@link AwsEndpoint#environment()} describes).
 */
public final class AwsClients {
  private AwsClients() {}

  /** An S3 client using path-style addressing against {@code endpoint}. */
  public static S3Client s3(AwsEndpoint endpoint) {
    return S3Client.builder()
        .endpointOverride(endpoint.uri())
        .region(Region.of(endpoint.region()))
        .credentialsProvider(credentials(endpoint))
        .forcePathStyle(true)
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  /** An S3 presigner using path-style addressing against {@code endpoint}. */
  public static S3Presigner s3Presigner(AwsEndpoint endpoint) {
    return S3Presigner.builder()
        .endpointOverride(endpoint.uri())
        .region(Region.of(endpoint.region()))
        .credentialsProvider(credentials(endpoint))
        .serviceConfiguration(
            software.amazon.awssdk.services.s3.S3Configuration.builder()
                .pathStyleAccessEnabled(true)
                .build())
        .build();
  }

  /** An SQS client against {@code endpoint}. */
  public static SqsClient sqs(AwsEndpoint endpoint) {
    return SqsClient.builder()
        .endpointOverride(endpoint.uri())
        .region(Region.of(endpoint.region()))
        .credentialsProvider(credentials(endpoint))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  /** A DynamoDB client against {@code endpoint}. */
  public static DynamoDbClient dynamoDb(AwsEndpoint endpoint) {
    return DynamoDbClient.builder()
        .endpointOverride(endpoint.uri())
        .region(Region.of(endpoint.region()))
        .credentialsProvider(credentials(endpoint))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  /** An EventBridge client against {@code endpoint}. */
  public static EventBridgeClient eventBridge(AwsEndpoint endpoint) {
    return EventBridgeClient.builder()
        .endpointOverride(endpoint.uri())
        .region(Region.of(endpoint.region()))
        .credentialsProvider(credentials(endpoint))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  private static StaticCredentialsProvider credentials(AwsEndpoint endpoint) {
    return StaticCredentialsProvider.create(
        AwsBasicCredentials.create(endpoint.accessKeyId(), endpoint.secretAccessKey()));
  }
}
