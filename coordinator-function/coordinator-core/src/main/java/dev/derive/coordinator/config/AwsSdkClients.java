package dev.derive.coordinator.config;

import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Builds the SDK v2 clients the coordinator uses: synchronous, on the JDK's URL connection HTTP
 * client (small and fast to start on Lambda; no Apache or Netty client is shipped). Region and
 * credentials come from the SDK's default chains; the endpoint comes only from the SDK's standard
 * {@code AWS_ENDPOINT_URL} environment variable or {@code aws.endpointUrl} system property, so
 * there is no local-only code path.
 */
public final class AwsSdkClients {
  private AwsSdkClients() {}

  /** An S3 client; path-style addressing iff {@code pathStyle} (set on local endpoints). */
  public static S3Client s3(boolean pathStyle) {
    return S3Client.builder()
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .forcePathStyle(pathStyle)
        .build();
  }

  /** An S3 presigner; path-style URLs iff {@code pathStyle}. */
  public static S3Presigner s3Presigner(boolean pathStyle) {
    return S3Presigner.builder()
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(pathStyle).build())
        .build();
  }

  /** An SQS client. */
  public static SqsClient sqs() {
    return SqsClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder()).build();
  }

  /** A DynamoDB client. */
  public static DynamoDbClient dynamoDb() {
    return DynamoDbClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder()).build();
  }
}
