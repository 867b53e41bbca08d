package dev.derive.coordinator.progress;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import dev.derive.coordinator.aws.DynamoDbJobStore;
import dev.derive.coordinator.claim.ClaimCheck;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.dispatch.StepMessages;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.plan.Plan;
import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.ExternalEndpoint;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepResult;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

@QuarkusTest
@QuarkusTestResource(LocalCloudResource.class)
class StepResultsHandlerTest {
  private static DynamoDbClient dynamoDb;
  private static S3Client s3;
  private static JobStore store;

  @BeforeAll
  static void clients() {
    ExternalEndpoint endpoint =
        new ExternalEndpoint(URI.create(System.getProperty("aws.endpointUrl")));
    dynamoDb = AwsClients.dynamoDb(endpoint);
    s3 = AwsClients.s3(endpoint);
    store = new DynamoDbJobStore(dynamoDb, LocalCloudResource.JOBS_TABLE);
  }

  @AfterAll
  static void close() {
    dynamoDb.close();
    s3.close();
  }

  private static Job claimOneStepJob(String id) {
    return claimOneStepJob(id, Duration.ofMinutes(5));
  }

  private static Job claimOneStepJob(String id, Duration lease) {
    SourceIdentity source =
        new SourceIdentity("source", "photos/cat.jpg", null, "\"etag\"", 10, "image/jpeg");
    PlannedStep step =
        new PlannedStep(
            "image",
            List.of(new Operation("resize", Map.of("width", 8, "height", 8))),
            "image/jpeg",
            "image/jpeg",
            ObjectRef.of(LocalCloudResource.DERIVATIVES_BUCKET, "derivatives/" + id));
    Instant now = Instant.now();
    Job job =
        Job.claimed(new Plan(id, List.of(step)), source, now, lease, Duration.ofDays(1), "trace");
    assertThat(store.claim(job, now, Instant.EPOCH).won()).isTrue();
    return job;
  }

  private static Map<String, Object> record(String messageId, String body) {
    return Map.of("messageId", messageId, "receiptHandle", "rh-" + messageId, "body", body);
  }

  @Test
  void appliesResultsDropsMalformedMessagesAndReportsNoFailures() {
    String id = "ab".repeat(32);
    Job job = claimOneStepJob(id);
    String result =
        MessageCodec.encode(StepResult.success(StepMessages.first(job), 42, 1, 2, false));

    given()
        .contentType("application/json")
        .body(
            Map.of(
                "Records",
                List.of(record("m-1", "{not json"), record("m-2", result), record("m-3", result))))
        .when()
        .post()
        .then()
        .statusCode(200)
        .body("batchItemFailures", empty());

    Job done = store.find(id).orElseThrow();
    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(done.steps().get(0).outputBytes()).isEqualTo(42);
  }

  @Test
  void aStepMessageFromADeadLetterQueueFailsItsJobWithARetryableError() {
    String id = "ef".repeat(32);
    Job job = claimOneStepJob(id);
    Map<String, Object> record =
        Map.of(
            "messageId", "m-dlq",
            "receiptHandle", "rh-dlq",
            "eventSourceARN", "arn:aws:sqs:us-east-1:123456789012:derive-image-dlq",
            "body", MessageCodec.encode(StepMessages.first(job)));

    given()
        .contentType("application/json")
        .body(Map.of("Records", List.of(record)))
        .when()
        .post()
        .then()
        .statusCode(200)
        .body("batchItemFailures", empty());

    Job failed = store.find(id).orElseThrow();
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.error().type()).isEqualTo("dead-lettered");
    assertThat(failed.error().retryable()).isTrue();
    assertThat(failed.error().detail()).startsWith("step 1 of 1 (image) exhausted");
  }

  /**
   * Issue 26: a worker wrote the derivative and died before reporting, on the message's last
   * delivery: the dead letter finds the output (a HEAD) and ends the job SUCCEEDED.
   */
  @Test
  void aDeadLetteredStepWhoseOutputIsInTheBucketSucceeds() {
    String id = "e1".repeat(32);
    Job job = claimOneStepJob(id);
    s3.putObject(
        b -> b.bucket(LocalCloudResource.DERIVATIVES_BUCKET).key("derivatives/" + id),
        RequestBody.fromBytes(new byte[] {1, 2, 3, 4, 5}));
    Map<String, Object> record =
        Map.of(
            "messageId", "m-dlq-made",
            "receiptHandle", "rh-dlq-made",
            "eventSourceARN", "arn:aws:sqs:us-east-1:123456789012:derive-image-dlq",
            "body", MessageCodec.encode(StepMessages.first(job)));

    given()
        .contentType("application/json")
        .body(Map.of("Records", List.of(record)))
        .when()
        .post()
        .then()
        .statusCode(200)
        .body("batchItemFailures", empty());

    Job done = store.find(id).orElseThrow();
    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(done.steps().get(0).outputBytes()).isEqualTo(5);
  }

  /**
   * Issue 26: a claim check (told apart from a result by its message attribute) is delivered again
   * while the claim's lease runs, and claims the job again, sending its step, once it lapsed.
   */
  @Test
  void aClaimCheckWaitsForTheLeaseThenClaimsTheLostJobAgain() throws InterruptedException {
    String id = "c1".repeat(32);
    Job lost = claimOneStepJob(id, Duration.ofSeconds(2));
    Map<String, Object> check =
        Map.of(
            "messageId", "m-check",
            "receiptHandle", "rh-check",
            "eventSourceARN", "arn:aws:sqs:us-east-1:123456789012:derive-step-results",
            "body", MessageCodec.encode(new ClaimCheck(id, lost.executionId())),
            "messageAttributes",
                Map.of(
                    ClaimCheck.MESSAGE_KIND_ATTRIBUTE,
                    Map.of("stringValue", ClaimCheck.KIND, "dataType", "String")));

    given()
        .contentType("application/json")
        .body(Map.of("Records", List.of(check)))
        .when()
        .post()
        .then()
        .statusCode(200)
        .body("batchItemFailures.itemIdentifier", org.hamcrest.Matchers.contains("m-check"));
    Job stored = store.find(id).orElseThrow();
    assertThat(stored.executionId()).isEqualTo(lost.executionId());

    // the claim's lease runs out (as stored: whole seconds)
    Thread.sleep(
        Math.max(0, Duration.between(Instant.now(), stored.leaseExpiresAt()).toMillis()) + 1_100);
    given()
        .contentType("application/json")
        .body(Map.of("Records", List.of(check)))
        .when()
        .post()
        .then()
        .statusCode(200)
        .body("batchItemFailures", empty());

    Job reclaimed = store.find(id).orElseThrow();
    assertThat(reclaimed.executionId()).isNotEqualTo(lost.executionId());
    assertThat(reclaimed.sentNoStep()).as("its step was sent").isFalse();
  }

  /**
   * Issue 26 item 12: while a deploy updates functions one by one, a message of a kind this version
   * does not know (a newer sender's) is delivered again rather than dropped, so the function that
   * knows it gets it; from a dead-letter queue, where it has had that time, it is dropped. A claim
   * check with a field a newer sender added is read as a claim check.
   */
  @Test
  void aMessageOfANewerKindIsDeliveredAgainAndANewerClaimCheckIsRead() {
    String id = "c2".repeat(32);
    Job job = claimOneStepJob(id); // its claim sent no step and its lease runs: a check waits
    String results = "arn:aws:sqs:us-east-1:123456789012:derive-step-results";
    String newerCheck =
        "{\"jobId\":\""
            + id
            + "\",\"executionId\":\""
            + job.executionId()
            + "\",\"reason\":\"callback\"}";

    given()
        .contentType("application/json")
        .body(
            Map.of(
                "Records",
                List.of(
                    ofKind("m-newer", results, "{\"jobId\":\"" + id + "\"}", "lease-renewal"),
                    ofKind("m-newer-dlq", results + "-dlq", "{\"jobId\":\"" + id + "\"}", "x"),
                    ofKind("m-check", results, newerCheck, ClaimCheck.KIND))))
        .when()
        .post()
        .then()
        .statusCode(200)
        .body(
            "batchItemFailures.itemIdentifier",
            org.hamcrest.Matchers.contains("m-newer", "m-check"));

    assertThat(store.find(id).orElseThrow().executionId())
        .as("the check was read (not dropped as malformed) and waits for the lease")
        .isEqualTo(job.executionId());
  }

  private static Map<String, Object> ofKind(
      String messageId, String arn, String body, String kind) {
    return Map.of(
        "messageId", messageId,
        "receiptHandle", "rh-" + messageId,
        "eventSourceARN", arn,
        "body", body,
        "messageAttributes",
            Map.of(
                ClaimCheck.MESSAGE_KIND_ATTRIBUTE,
                Map.of("stringValue", kind, "dataType", "String")));
  }

  @Test
  void aResultForAnUnknownJobIsAcknowledged() {
    String unknown = "cd".repeat(32);
    String body =
        "{\"jobId\":\""
            + unknown
            + "\",\"stepIndex\":0,\"capability\":\"image\",\"succeeded\":true,"
            + "\"output\":{\"bucket\":\"derivatives\",\"key\":\"derivatives/"
            + unknown
            + "\"},\"outputBytes\":1,\"startedAtMillis\":1,\"finishedAtMillis\":2,"
            + "\"reused\":false,\"traceId\":\"t\"}";

    given()
        .contentType("application/json")
        .body(Map.of("Records", List.of(record("m-9", body))))
        .when()
        .post()
        .then()
        .statusCode(200)
        .body("batchItemFailures.size()", equalTo(0));
  }
}
