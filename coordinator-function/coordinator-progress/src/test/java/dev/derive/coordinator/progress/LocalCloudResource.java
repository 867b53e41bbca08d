package dev.derive.coordinator.progress;

import dev.derive.coordinator.LocalAws;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import dev.derive.infra.endpoint.SdkSystemProperties;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.file.Path;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Starts a real moto server with the jobs table, the derivatives bucket and the image queue, points
 * the SDK at it through its standard system properties and hands the function's settings to Quarkus
 * config.
 */
public class LocalCloudResource implements QuarkusTestResourceLifecycleManager {
  static final String JOBS_TABLE = "jobs";
  static final String DERIVATIVES_BUCKET = "derivatives";

  private MotoServerEndpoint endpoint;

  @Override
  public Map<String, String> start() {
    endpoint = MotoServerEndpoint.start(Path.of("target", "moto", "moto.log"));
    SdkSystemProperties.set(endpoint);
    String queueUrl;
    try (DynamoDbClient dynamoDb = AwsClients.dynamoDb(endpoint);
        S3Client s3 = AwsClients.s3(endpoint);
        SqsClient sqs = AwsClients.sqs(endpoint)) {
      LocalAws.createJobsTable(dynamoDb, JOBS_TABLE);
      s3.createBucket(b -> b.bucket(DERIVATIVES_BUCKET));
      queueUrl = sqs.createQueue(b -> b.queueName("image")).queueUrl();
    }
    return Map.of(
        "JOBS_TABLE", JOBS_TABLE,
        "SOURCE_BUCKET", "source",
        "DERIVATIVES_BUCKET", DERIVATIVES_BUCKET,
        "IMAGE_QUEUE_URL", queueUrl,
        "DERIVE_S3_PATH_STYLE", "true");
  }

  @Override
  public void stop() {
    if (endpoint != null) {
      endpoint.close();
    }
    SdkSystemProperties.clear();
  }
}
