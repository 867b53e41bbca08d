package dev.derive.coordinator.api;

import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.LocalAws;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import dev.derive.infra.endpoint.SdkSystemProperties;
import dev.derive.protocol.capability.CapabilityDescriptor;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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
    Map<String, String> environment = new LinkedHashMap<>();
    environment.put("JOBS_TABLE", JOBS_TABLE);
    environment.put("SOURCE_BUCKET", SOURCE_BUCKET);
    environment.put("DERIVATIVES_BUCKET", DERIVATIVES_BUCKET);
    environment.put("DERIVE_S3_PATH_STYLE", "true");
    environment.put("MAX_SOURCE_BYTES", "1000000");
    environment.put("MAX_REQUEST_BYTES", "4096");
    try (S3Client s3 = AwsClients.s3(endpoint);
        DynamoDbClient dynamoDb = AwsClients.dynamoDb(endpoint);
        SqsClient sqs = AwsClients.sqs(endpoint)) {
      s3.createBucket(b -> b.bucket(SOURCE_BUCKET));
      s3.createBucket(b -> b.bucket(DERIVATIVES_BUCKET));
      LocalAws.createJobsTable(dynamoDb, JOBS_TABLE);
      // a queue for every declared capability, as the template deploys them all
      for (CapabilityDescriptor capability : Declarations.ALL) {
        environment.put(
            capability.queueUrlVariable(),
            sqs.createQueue(b -> b.queueName(capability.name())).queueUrl());
      }
    }
    return environment;
  }

  @Override
  public void stop() {
    if (endpoint != null) {
      endpoint.close();
    }
    SdkSystemProperties.clear();
  }
}
