package dev.derive.coordinator.progress;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import dev.derive.coordinator.aws.DynamoDbJobStore;
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
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

@QuarkusTest
@QuarkusTestResource(LocalCloudResource.class)
class StepResultsHandlerTest {
  private static DynamoDbClient dynamoDb;
  private static JobStore store;

  @BeforeAll
  static void clients() {
    dynamoDb =
        AwsClients.dynamoDb(
            new ExternalEndpoint(URI.create(System.getProperty("aws.endpointUrl"))));
    store = new DynamoDbJobStore(dynamoDb, LocalCloudResource.JOBS_TABLE);
  }

  @AfterAll
  static void close() {
    dynamoDb.close();
  }

  private static Job claimOneStepJob(String id) {
    SourceIdentity source =
        new SourceIdentity("source", "photos/cat.jpg", null, "\"etag\"", 10, "image/jpeg");
    PlannedStep step =
        new PlannedStep(
            "image",
            List.of(new Operation("resize", Map.of("width", 8, "height", 8))),
            "image/jpeg",
            "image/jpeg",
            ObjectRef.of("derivatives", "derivatives/" + id));
    Instant now = Instant.now();
    Job job =
        Job.claimed(
            new Plan(id, List.of(step)),
            source,
            now,
            Duration.ofMinutes(5),
            Duration.ofDays(1),
            "trace");
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
