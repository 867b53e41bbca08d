package dev.derive.infra.local.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import dev.derive.infra.local.RepositoryTemplate;
import dev.derive.infra.local.template.StackReferences;
import dev.derive.infra.local.template.Template;
import dev.derive.infra.local.template.TemplateReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Creates the resources of the repository's template.yaml on a real moto server. */
class StackProvisionerTest {
  private static MotoServerEndpoint endpoint;
  private static S3Client s3;
  private static SqsClient sqs;
  private static DynamoDbClient dynamoDb;
  private static Map<String, ProvisionedResource> created;

  @BeforeAll
  static void provisionTheRepositoryTemplate() {
    endpoint = MotoServerEndpoint.start(Path.of("target/moto-provisioner.log"));
    s3 = AwsClients.s3(endpoint);
    sqs = AwsClients.sqs(endpoint);
    dynamoDb = AwsClients.dynamoDb(endpoint);
    created = provision();
  }

  @AfterAll
  static void stop() {
    s3.close();
    sqs.close();
    dynamoDb.close();
    endpoint.close();
  }

  private static Map<String, ProvisionedResource> provision() {
    Template template = TemplateReader.read(RepositoryTemplate.path());
    StackReferences references =
        new StackReferences(template, "derive-local", "us-east-1", Map.of());
    return new StackProvisioner(
            List.of(
                new BucketProvisioner(s3, "derive-local"),
                new QueueProvisioner(sqs, "derive-local"),
                new TableProvisioner(dynamoDb, "derive-local"),
                new EventBusProvisioner(AwsClients.eventBridge(endpoint), "derive-local"),
                new RuleProvisioner(AwsClients.eventBridge(endpoint), "derive-local", line -> {})),
            "derive-local",
            "us-east-1",
            line -> {})
        .provision(template, references);
  }

  @Test
  void bucketsAreCreatedWithTheirTemplateNames() {
    assertThat(s3.listBuckets().buckets())
        .extracting(b -> b.name())
        .contains("derive-local-source-123456789012", "derive-local-derivatives-123456789012");
  }

  /**
   * Issue 26 item 6: the source bucket is versioned as in template.yaml, so each write is a new
   * version, by which a source is identified; the derivatives bucket is not.
   */
  @Test
  void theSourceBucketKeepsVersionsAsTheTemplateSays() {
    String source = created.get("SourceBucket").reference();

    assertThat(s3.getBucketVersioning(b -> b.bucket(source)).statusAsString()).isEqualTo("Enabled");
    String first =
        s3.putObject(
                b -> b.bucket(source).key("v.txt"),
                software.amazon.awssdk.core.sync.RequestBody.fromString("same"))
            .versionId();
    String second =
        s3.putObject(
                b -> b.bucket(source).key("v.txt"),
                software.amazon.awssdk.core.sync.RequestBody.fromString("same"))
            .versionId();
    assertThat(first).isNotNull().isNotEqualTo(second);
    assertThat(
            s3.getBucketVersioning(b -> b.bucket(created.get("DerivativesBucket").reference()))
                .status())
        .isNull();
  }

  @Test
  void aQueueGetsItsAttributesAndARedrivePolicyToItsDeadLetterQueue() {
    String url = created.get("ImageQueue").reference();
    Map<QueueAttributeName, String> attributes =
        sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.ALL))
            .attributes();

    assertThat(url).endsWith("/derive-local-image");
    assertThat(attributes.get(QueueAttributeName.VISIBILITY_TIMEOUT)).isEqualTo("720");
    assertThat(attributes.get(QueueAttributeName.REDRIVE_POLICY))
        .contains(created.get("ImageDeadLetterQueue").attributes().get("Arn"))
        .containsPattern("\"maxReceiveCount\":\\s*3");
    assertThat(created.get("ImageDeadLetterQueue").attributes().get("Arn"))
        .isEqualTo("arn:aws:sqs:us-east-1:123456789012:derive-local-image-dlq");
  }

  @Test
  void aDeadLetterQueueKeepsItsRetentionPeriod() {
    String url = created.get("StepResultsDeadLetterQueue").reference();

    assertThat(
            sqs.getQueueAttributes(
                    b ->
                        b.queueUrl(url).attributeNames(QueueAttributeName.MESSAGE_RETENTION_PERIOD))
                .attributes()
                .get(QueueAttributeName.MESSAGE_RETENTION_PERIOD))
        .isEqualTo("1209600");
  }

  @Test
  void theJobsTableHasItsKeyAndTimeToLive() {
    var table = dynamoDb.describeTable(b -> b.tableName("derive-local-jobs")).table();
    var ttl =
        dynamoDb.describeTimeToLive(b -> b.tableName("derive-local-jobs")).timeToLiveDescription();

    assertThat(table.keySchema()).extracting(k -> k.attributeName()).containsExactly("jobId");
    assertThat(ttl.timeToLiveStatus()).isEqualTo(TimeToLiveStatus.ENABLED);
    assertThat(ttl.attributeName()).isEqualTo("expiresAt");
  }

  @Test
  void provisioningAgainChangesNothing() {
    Map<String, ProvisionedResource> again = provision();

    assertThat(again.get("ImageQueue")).isEqualTo(created.get("ImageQueue"));
    assertThat(again.get("JobsTable")).isEqualTo(created.get("JobsTable"));
    assertThat(again.get("SourceBucket")).isEqualTo(created.get("SourceBucket"));
  }
}
