package dev.derive.coordinator.config;

import java.time.Duration;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
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
 *
 * <p>Every call is bounded: {@link #ATTEMPT_TIMEOUT} per HTTP attempt and {@link #CALL_TIMEOUT} for
 * the call with its retries, well under the API function's 29 s timeout (API Gateway's integration
 * limit), so an endpoint that hangs makes the request fail fast with 503 instead of meeting the
 * function's timeout between a claim and its dispatch. The coordinator's calls are all small (HEAD,
 * a ranged GET of 4 KiB, single items, single messages).
 */
public final class AwsSdkClients {
  /** The longest one HTTP attempt of a coordinator's SDK call may take. */
  public static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);

  /** The longest a coordinator's SDK call may take with its retries. */
  public static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  /** The longest the TCP connect may take. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

  private AwsSdkClients() {}

  private static ClientOverrideConfiguration bounded() {
    return ClientOverrideConfiguration.builder()
        .apiCallAttemptTimeout(ATTEMPT_TIMEOUT)
        .apiCallTimeout(CALL_TIMEOUT)
        .build();
  }

  private static UrlConnectionHttpClient.Builder http() {
    return UrlConnectionHttpClient.builder()
        .connectionTimeout(CONNECT_TIMEOUT)
        .socketTimeout(ATTEMPT_TIMEOUT);
  }

  /** An S3 client; path-style addressing iff {@code pathStyle} (set on local endpoints). */
  public static S3Client s3(boolean pathStyle) {
    return S3Client.builder()
        .httpClientBuilder(http())
        .overrideConfiguration(bounded())
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
    return SqsClient.builder().httpClientBuilder(http()).overrideConfiguration(bounded()).build();
  }

  /** A DynamoDB client. */
  public static DynamoDbClient dynamoDb() {
    return DynamoDbClient.builder()
        .httpClientBuilder(http())
        .overrideConfiguration(bounded())
        .build();
  }

  /** An SSM client (presets document). */
  public static software.amazon.awssdk.services.ssm.SsmClient ssm() {
    return software.amazon.awssdk.services.ssm.SsmClient.builder()
        .httpClientBuilder(http())
        .overrideConfiguration(bounded())
        .build();
  }

  /** A Secrets Manager client (URL signing keys). */
  public static software.amazon.awssdk.services.secretsmanager.SecretsManagerClient
      secretsManager() {
    return software.amazon.awssdk.services.secretsmanager.SecretsManagerClient.builder()
        .httpClientBuilder(http())
        .overrideConfiguration(bounded())
        .build();
  }

  /** An EventBridge client (completion events). */
  public static software.amazon.awssdk.services.eventbridge.EventBridgeClient eventBridge() {
    return software.amazon.awssdk.services.eventbridge.EventBridgeClient.builder()
        .httpClientBuilder(http())
        .overrideConfiguration(bounded())
        .build();
  }
}
