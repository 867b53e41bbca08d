package dev.derive.coordinator.aws;

import dev.derive.aws.AwsClients;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * One client per AWS service for one coordinator function, shared by every part {@link
 * CoordinatorProducers} builds: {@link AwsClients#COORDINATOR}'s timeouts, endpoint and region from
 * the SDK's default chains. Each client is built the first time a part asks for it (a function
 * without an event bus never builds an EventBridge client) and kept; SDK clients are thread-safe.
 * Nothing closes them: they live as long as the function's process.
 */
public final class CoordinatorClients {
  private final Supplier<S3Client> s3;
  private final Supplier<S3Presigner> presigner;
  private final Supplier<DynamoDbClient> dynamoDb = once(() -> client(DynamoDbClient.builder()));
  private final Supplier<SqsClient> sqs = once(() -> client(SqsClient.builder()));
  private final Supplier<EventBridgeClient> eventBridge =
      once(() -> client(EventBridgeClient.builder()));
  private final Supplier<SecretsManagerClient> secretsManager =
      once(() -> client(SecretsManagerClient.builder()));
  private final Supplier<SsmClient> ssm = once(() -> client(SsmClient.builder()));

  /**
   * @param s3PathStyle whether S3 is addressed path-style (a local endpoint) rather than by virtual
   *     host ({@code S3_PATH_STYLE})
   */
  public CoordinatorClients(boolean s3PathStyle) {
    this.s3 =
        once(
            () ->
                AwsClients.configure(S3Client.builder(), AwsClients.COORDINATOR)
                    .forcePathStyle(s3PathStyle)
                    .build());
    this.presigner = once(() -> AwsClients.s3Presigner(s3PathStyle));
  }

  public S3Client s3() {
    return s3.get();
  }

  public S3Presigner s3Presigner() {
    return presigner.get();
  }

  public DynamoDbClient dynamoDb() {
    return dynamoDb.get();
  }

  public SqsClient sqs() {
    return sqs.get();
  }

  public EventBridgeClient eventBridge() {
    return eventBridge.get();
  }

  public SecretsManagerClient secretsManager() {
    return secretsManager.get();
  }

  public SsmClient ssm() {
    return ssm.get();
  }

  private static <B extends AwsSyncClientBuilder<B, C> & AwsClientBuilder<B, C>, C> C client(
      B builder) {
    return AwsClients.configure(builder, AwsClients.COORDINATOR).build();
  }

  /** {@code make}'s value, made by the first caller and handed to every later one. */
  private static <T> Supplier<T> once(Supplier<T> make) {
    return new Supplier<>() {
      private volatile T value;

      @Override
      public T get() {
        T made = value;
        if (made == null) {
          synchronized (this) {
            made = value;
            if (made == null) {
              made = make.get();
              value = made;
            }
          }
        }
        return made;
      }
    };
  }
}
