package dev.derive.coordinator.api;

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
 * Starts a real moto server for the API tests, creates the source and derivatives buckets, the jobs
 * table and the four capability queues as {@code template.yaml} shapes them, points the SDK at it
 * through its standard system properties, and hands the function's settings to Quarkus config.
 */
public class LocalCloudResource implements QuarkusTestResourceLifecycleManager {
  static final String SOURCE_BUCKET = "source";
  static final String DERIVATIVES_BUCKET = "derivatives";
  static final String JOBS_TABLE = "jobs";

  private MotoServerEndpoint endpoint;

  @Override
  public Map<String, String> start() {
    endpoint = MotoServerEndpoint.start(Path.of("target", "moto", "moto.log"));
    SdkSystemProperties.set(endpoint);
    String queueUrl;
    String pdfQueueUrl;
    String textQueueUrl;
    String markupQueueUrl;
    try (S3Client s3 = AwsClients.s3(endpoint);
        DynamoDbClient dynamoDb = AwsClients.dynamoDb(endpoint);
        SqsClient sqs = AwsClients.sqs(endpoint)) {
      s3.createBucket(b -> b.bucket(SOURCE_BUCKET));
      s3.createBucket(b -> b.bucket(DERIVATIVES_BUCKET));
      LocalAws.createJobsTable(dynamoDb, JOBS_TABLE);
      queueUrl = sqs.createQueue(b -> b.queueName("image")).queueUrl();
      pdfQueueUrl = sqs.createQueue(b -> b.queueName("pdf")).queueUrl();
      textQueueUrl = sqs.createQueue(b -> b.queueName("text")).queueUrl();
      markupQueueUrl = sqs.createQueue(b -> b.queueName("markup")).queueUrl();
    }
    return Map.of(
        "JOBS_TABLE", JOBS_TABLE,
        "SOURCE_BUCKET", SOURCE_BUCKET,
        "DERIVATIVES_BUCKET", DERIVATIVES_BUCKET,
        "IMAGE_QUEUE_URL", queueUrl,
        "PDF_QUEUE_URL", pdfQueueUrl,
        "TEXT_QUEUE_URL", textQueueUrl,
        "MARKUP_QUEUE_URL", markupQueueUrl,
        "DERIVE_S3_PATH_STYLE", "true",
        "MAX_SOURCE_BYTES", "1000000",
        "MAX_REQUEST_BYTES", "4096");
  }

  @Override
  public void stop() {
    if (endpoint != null) {
      endpoint.close();
    }
    SdkSystemProperties.clear();
  }
}
