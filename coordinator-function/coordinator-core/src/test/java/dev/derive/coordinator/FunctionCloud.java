package dev.derive.coordinator;

import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import dev.derive.infra.endpoint.SdkSystemProperties;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A moto server of its own for one coordinator function's Quarkus tests: the source and derivatives
 * buckets, the jobs table and a queue for each given capability, as {@code template.yaml} shapes
 * them, with the SDK pointed at it through its standard system properties. Each function's {@code
 * LocalCloudResource} starts one and hands {@link #settings} (plus its own) to Quarkus config;
 * shared through this module's test-jar.
 */
public final class FunctionCloud implements AutoCloseable {
  /** The source bucket's name. */
  public static final String SOURCE_BUCKET = "source";

  /** The derivatives bucket's name. */
  public static final String DERIVATIVES_BUCKET = "derivatives";

  /** The jobs table's name. */
  public static final String JOBS_TABLE = "jobs";

  private final MotoServerEndpoint endpoint;
  private final Map<String, String> settings;

  private FunctionCloud(MotoServerEndpoint endpoint, Map<String, String> settings) {
    this.endpoint = endpoint;
    this.settings = Collections.unmodifiableMap(settings);
  }

  /**
   * Starts moto (its log in {@code target/moto/moto.log}) and creates the resources, one queue per
   * capability of {@code capabilities}, named after it.
   */
  public static FunctionCloud start(List<CapabilityDescriptor> capabilities) {
    MotoServerEndpoint endpoint = MotoServerEndpoint.start(Path.of("target", "moto", "moto.log"));
    SdkSystemProperties.set(endpoint);
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("JOBS_TABLE", JOBS_TABLE);
    settings.put("SOURCE_BUCKET", SOURCE_BUCKET);
    settings.put("DERIVATIVES_BUCKET", DERIVATIVES_BUCKET);
    settings.put("DERIVE_S3_PATH_STYLE", "true");
    try (S3Client s3 = AwsClients.s3(endpoint);
        DynamoDbClient dynamoDb = AwsClients.dynamoDb(endpoint);
        SqsClient sqs = AwsClients.sqs(endpoint)) {
      s3.createBucket(b -> b.bucket(SOURCE_BUCKET));
      s3.createBucket(b -> b.bucket(DERIVATIVES_BUCKET));
      LocalAws.createJobsTable(dynamoDb, JOBS_TABLE);
      for (CapabilityDescriptor capability : capabilities) {
        settings.put(
            capability.queueUrlVariable(),
            sqs.createQueue(b -> b.queueName(capability.name())).queueUrl());
      }
    }
    return new FunctionCloud(endpoint, settings);
  }

  /** The function's settings naming these resources (table, buckets, queue URLs, path style). */
  public Map<String, String> settings() {
    return settings;
  }

  /** Stops moto and takes the SDK's system properties back. */
  @Override
  public void close() {
    endpoint.close();
    SdkSystemProperties.clear();
  }
}
