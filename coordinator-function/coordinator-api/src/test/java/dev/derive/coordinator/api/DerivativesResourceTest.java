package dev.derive.coordinator.api;

import static dev.derive.coordinator.api.ApiTestData.JPEG_HEAD;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.ExternalEndpoint;
import dev.derive.worker.runtime.fixtures.MinimalPdf;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

@QuarkusTest
@QuarkusTestResource(LocalCloudResource.class)
class DerivativesResourceTest {
  private static final String PROBLEM = "application/problem+json";
  private static S3Client s3;
  private static DynamoDbClient dynamoDb;
  private static SqsClient sqs;
  private static String queueUrl;

  @BeforeAll
  static void clients() {
    ExternalEndpoint endpoint = ApiTestData.endpoint();
    s3 = AwsClients.s3(endpoint);
    dynamoDb = AwsClients.dynamoDb(endpoint);
    sqs = AwsClients.sqs(endpoint);
    queueUrl = ConfigProvider.getConfig().getValue("IMAGE_QUEUE_URL", String.class);
    s3.putObject(
        b -> b.bucket(LocalCloudResource.SOURCE_BUCKET).key("photos/cat.jpg"),
        RequestBody.fromBytes(JPEG_HEAD));
    s3.putObject(
        b -> b.bucket(LocalCloudResource.SOURCE_BUCKET).key("docs/blob.bin"),
        RequestBody.fromBytes(new byte[] {0, 1, 2, 3, (byte) 0xFE, (byte) 0x80, 0x7F, 0, 0, 9}));
  }

  @AfterAll
  static void close() {
    s3.close();
    dynamoDb.close();
    sqs.close();
  }

  @BeforeEach
  void emptyQueue() {
    sqs.purgeQueue(b -> b.queueUrl(queueUrl));
  }

  private static String request(String key, int width) {
    return """
        {"source":{"key":"%s"},"target":{"mediaType":"image/jpeg","width":%d,"height":64}}
        """
        .formatted(key, width);
  }

  private static Response post(String body) {
    return given().contentType("application/json").body(body).when().post("/v1/derivatives");
  }

  private static List<Message> queued() {
    return sqs.receiveMessage(
            b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).messageAttributeNames("All"))
        .messages();
  }

  private static int jobRecords() {
    return dynamoDb.scan(b -> b.tableName(LocalCloudResource.JOBS_TABLE)).count();
  }

  @Test
  void malformedJsonIsA400Problem() {
    post("{\"source\": {")
        .then()
        .statusCode(400)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/invalid-request"))
        .body("status", equalTo(400))
        .body("detail", containsString("malformed JSON"));
  }

  /** Issue 14 item 12: which width was meant? Neither is guessed. */
  @Test
  void aMemberGivenTwiceIsA400NamingItsPointerWithoutParserInternals() {
    post("{\"source\":{\"key\":\"photos/cat.jpg\"},\"target\":{\"mediaType\":\"image/jpeg\","
            + "\"width\":64,\"width\":640}}")
        .then()
        .statusCode(400)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/invalid-request"))
        .body("errors.pointer", equalTo(List.of("/target/width")))
        .body(
            "detail",
            equalTo(
                "/target/width: member 'width' appears twice in one object; member names must be"
                    + " unique (RFC 7493 section 2.3)"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"source\":{\"key\":\"zzz\"}}", "]", " xyz", "{"})
  void contentAfterTheBodysValueIsA400(String trailing) {
    post("{\"source\":{\"key\":\"photos/cat.jpg\"},\"target\":{\"mediaType\":\"image/jpeg\","
            + "\"width\":64,\"height\":64}}"
            + trailing)
        .then()
        .statusCode(400)
        .contentType(PROBLEM)
        .body("type", endsWith("/invalid-request"))
        .body("detail", startsWith("request body: malformed JSON: "))
        .body("detail", org.hamcrest.Matchers.not(containsString("`")));
  }

  @Test
  void aTruncatedBodyIsA400WithoutJavaTypeNames() {
    post("{\"source\": [")
        .then()
        .statusCode(400)
        .contentType(PROBLEM)
        .body(
            "detail",
            startsWith("request body: malformed JSON: the body ends at line 1, column 13 before"))
        .body("detail", containsString("the array opened at line 1, column 12"))
        .body("detail", org.hamcrest.Matchers.not(containsString("Source")))
        .body("detail", org.hamcrest.Matchers.not(containsString("`")));
  }

  @Test
  void anUnknownFieldIsA400NamingIt() {
    post("{\"source\":{\"key\":\"photos/cat.jpg\"},\"target\":{\"mediaType\":\"image/jpeg\","
            + "\"width\":64,\"height\":64,\"colour\":\"red\"}}")
        .then()
        .statusCode(400)
        .contentType(PROBLEM)
        .body("detail", startsWith("/target/colour"))
        .body("errors.pointer", hasItem("/target/colour"));
  }

  @Test
  void widthZeroIsA400NamingTheWidth() {
    post(request("photos/cat.jpg", 0))
        .then()
        .statusCode(400)
        .contentType(PROBLEM)
        .body("title", equalTo("Invalid request"))
        .body("detail", startsWith("/target/width"))
        .body("errors[0].pointer", equalTo("/target/width"));
  }

  @Test
  void widthOneHundredThousandIsA400NamingTheWidth() {
    post(request("photos/cat.jpg", 100000))
        .then()
        .statusCode(400)
        .contentType(PROBLEM)
        .body("errors[0].pointer", equalTo("/target/width"));
  }

  /** Issue 26 item 4: a port the callback function could not send to is refused at once. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {0, 99999})
  void aCallbackPortOutOfRangeIsA400NamingTheCallback(int port) {
    post("{\"source\":{\"key\":\"photos/cat.jpg\"},\"target\":{\"mediaType\":\"image/png\"},"
            + "\"callback\":\"https://hooks.example.com:"
            + port
            + "/derive\"}")
        .then()
        .statusCode(400)
        .contentType(PROBLEM)
        .body("errors[0].pointer", equalTo("/callback"))
        .body("detail", equalTo("/callback: must have a port from 1 to 65535, not " + port));
  }

  @Test
  void aMissingSourceIsA404Problem() {
    post(request("photos/none.jpg", 64))
        .then()
        .statusCode(404)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/source-not-found"))
        .body("detail", containsString("photos/none.jpg"));
  }

  @Test
  void aSourceOfUnsupportedContentIsA415ListingWhatIsSupported() {
    post(request("docs/blob.bin", 64))
        .then()
        .statusCode(415)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/unsupported-media-type"))
        .body("detail", containsString("image/webp"));
  }

  /** As a job on an encrypted PDF ends: the same problem type, at once, with no job. */
  @Test
  void aPasswordProtectedOfficeDocumentIsA422PasswordRequired() throws Exception {
    String dir = System.getProperty("derive.samples", "../../../shared/samples");
    s3.putObject(
        b -> b.bucket(LocalCloudResource.SOURCE_BUCKET).key("docs/protected.docx"),
        RequestBody.fromFile(
            java.nio.file.Path.of(dir, "documents/testWORD_protected_passtika.docx")));

    given()
        .contentType("application/json")
        .body(
            "{\"source\":{\"key\":\"docs/protected.docx\"},\"target\":{\"mediaType\":"
                + "\"text/plain\"}}")
        .post("/v1/derivatives")
        .then()
        .statusCode(422)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/password-required"))
        .body("detail", containsString("password-protected"));
  }

  @Test
  void aNewDerivativeIsAcceptedWithItsLocationAndItsFirstStepQueued() {
    Response response = post(request("photos/cat.jpg", 65));

    response
        .then()
        .statusCode(202)
        .body("status", equalTo("PENDING"))
        .body("outcome", equalTo("started"))
        .body("id", matchesPattern("[0-9a-f]{64}"));
    String id = response.jsonPath().getString("id");
    assertThat(response.header("Location")).endsWith("/v1/derivatives/" + id);
    List<Message> messages = queued();
    assertThat(messages).hasSize(1);
    assertThat(messages.get(0).messageAttributes().get("jobId").stringValue()).isEqualTo(id);
    assertThat(messages.get(0).body()).contains("\"capability\":\"image\"");

    given()
        .when()
        .get("/v1/derivatives/" + id)
        .then()
        .statusCode(200)
        .body("status", equalTo("PENDING"))
        .body("steps[0].capability", equalTo("image"))
        .body("steps[0].status", equalTo("QUEUED"));
  }

  @Test
  void anIdenticalRequestJoinsTheJobWithoutASecondMessage() {
    String first = post(request("photos/cat.jpg", 66)).jsonPath().getString("id");
    queued();
    sqs.purgeQueue(b -> b.queueUrl(queueUrl));

    post(request("photos/cat.jpg", 66))
        .then()
        .statusCode(202)
        .body("id", equalTo(first))
        .body("outcome", equalTo("joined"));

    assertThat(queued()).isEmpty();
  }

  @Test
  void aCachedDerivativeIsServedWithoutAJobRecordOrAMessage() {
    String id = post(request("photos/cat.jpg", 67)).jsonPath().getString("id");
    s3.putObject(
        b -> b.bucket(LocalCloudResource.DERIVATIVES_BUCKET).key("derivatives/" + id),
        RequestBody.fromBytes(JPEG_HEAD));
    dynamoDb.deleteItem(
        b ->
            b.tableName(LocalCloudResource.JOBS_TABLE)
                .key(Map.of("jobId", AttributeValue.fromS(id))));
    sqs.purgeQueue(b -> b.queueUrl(queueUrl));
    int recordsBefore = jobRecords();

    post(request("photos/cat.jpg", 67))
        .then()
        .statusCode(200)
        .body("id", equalTo(id))
        .body("status", equalTo("SUCCEEDED"))
        .body("outcome", equalTo("cached"))
        .body("download.url", containsString("derivatives/" + id))
        .body("download.url", startsWith(System.getProperty("aws.endpointUrl")))
        .body("download.expiresAt", matchesPattern("\\d{4}-.*Z"));

    assertThat(jobRecords()).isEqualTo(recordsBefore);
    assertThat(
            dynamoDb
                .getItem(
                    b ->
                        b.tableName(LocalCloudResource.JOBS_TABLE)
                            .key(Map.of("jobId", AttributeValue.fromS(id))))
                .hasItem())
        .isFalse();
    assertThat(queued()).isEmpty();

    given()
        .when()
        .get("/v1/derivatives/" + id)
        .then()
        .statusCode(200)
        .body("status", equalTo("SUCCEEDED"))
        .body("$", not(hasKey("outcome")))
        .body("download.url", containsString("derivatives/" + id));
  }

  @Test
  void anUnknownOrMalformedIdIsA404Problem() {
    given()
        .when()
        .get("/v1/derivatives/" + "0".repeat(64))
        .then()
        .statusCode(404)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/not-found"));
    given()
        .when()
        .get("/v1/derivatives/NOT-A-FINGERPRINT")
        .then()
        .statusCode(404)
        .contentType(PROBLEM);
  }

  /** Plays the image worker and the progress function for the next queued step: it succeeds. */
  private static java.util.concurrent.CompletableFuture<Void> finishNextJobAfter(long millis) {
    return java.util.concurrent.CompletableFuture.runAsync(
        () -> {
          List<Message> messages = List.of();
          long deadline = System.currentTimeMillis() + 10_000;
          while (messages.isEmpty() && System.currentTimeMillis() < deadline) {
            messages =
                sqs.receiveMessage(
                        b -> b.queueUrl(queueUrl).waitTimeSeconds(1).messageAttributeNames("All"))
                    .messages();
          }
          if (messages.isEmpty()) {
            throw new IllegalStateException("no step was queued within 10 s");
          }
          String id = messages.get(0).messageAttributes().get("jobId").stringValue();
          try {
            Thread.sleep(millis);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          s3.putObject(
              b -> b.bucket(LocalCloudResource.DERIVATIVES_BUCKET).key("derivatives/" + id),
              RequestBody.fromBytes(JPEG_HEAD));
          ApiTestData.markJob(
              dynamoDb, id, "SUCCEEDED", Map.of(":currentStep", AttributeValue.fromN("1")));
        });
  }

  private static String withWait(String key, int width, int wait) {
    return """
        {"source":{"key":"%s"},"target":{"mediaType":"image/jpeg","width":%d},"wait":%d}
        """
        .formatted(key, width, wait);
  }

  @Test
  void aJobFinishingWithinTheWaitIsAnsweredWith200AndItsDownload() throws Exception {
    var worker = finishNextJobAfter(300);

    post(withWait("photos/cat.jpg", 70, 10))
        .then()
        .statusCode(200)
        .body("status", equalTo("SUCCEEDED"))
        .body("outcome", equalTo("started"))
        .body("download.url", containsString("derivatives/"))
        .body("steps[0].capability", equalTo("image"))
        .body("steps[0].operations", hasItem("encode"));
    worker.get();
  }

  @Test
  void aJobOutlastingTheWaitIsAnsweredWith202() {
    long started = System.currentTimeMillis();

    post(withWait("photos/cat.jpg", 71, 1))
        .then()
        .statusCode(202)
        .body("status", equalTo("PENDING"));

    assertThat(System.currentTimeMillis() - started).isGreaterThanOrEqualTo(1000);
  }

  @Test
  void contentIs409WhilePendingAnd303WhenDone() {
    String pending = post(request("photos/cat.jpg", 72)).jsonPath().getString("id");
    given()
        .redirects()
        .follow(false)
        .when()
        .get("/v1/derivatives/" + pending + "/content")
        .then()
        .statusCode(409)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/derivative-not-ready"));

    s3.putObject(
        b -> b.bucket(LocalCloudResource.DERIVATIVES_BUCKET).key("derivatives/" + pending),
        RequestBody.fromBytes(JPEG_HEAD));
    ApiTestData.markJob(
        dynamoDb, pending, "SUCCEEDED", Map.of(":currentStep", AttributeValue.fromN("1")));
    Response done =
        given().redirects().follow(false).when().get("/v1/derivatives/" + pending + "/content");
    assertThat(done.statusCode()).isEqualTo(303);
    assertThat(done.header("Location"))
        .startsWith(System.getProperty("aws.endpointUrl"))
        .contains("derivatives/" + pending);
  }

  /**
   * The content of a job that failed {@code password-required} answers what a {@code POST} meeting
   * that job answers: the job's own problem type, title and status (422) and its id, not a generic
   * 410 {@code derivative-failed} (found by a newcomer's trial).
   */
  @Test
  void contentOfAFailedJobIsTheJobsOwnProblemAsPostAnswersIt() {
    String body = request("photos/cat.jpg", 73);
    String failed = post(body).jsonPath().getString("id");
    ApiTestData.markJob(
        dynamoDb,
        failed,
        "FAILED",
        Map.of(":error", ApiTestData.error("password-required", "the PDF is encrypted")));

    Response content =
        given().redirects().follow(false).when().get("/v1/derivatives/" + failed + "/content");
    Response again = post(body);

    assertThat(content.statusCode()).isEqualTo(422).isEqualTo(again.statusCode());
    assertThat(content.contentType()).startsWith(PROBLEM);
    for (String member : List.of("type", "title", "status", "id")) {
      assertThat(content.jsonPath().getString(member))
          .as(member)
          .isEqualTo(again.jsonPath().getString(member));
    }
    assertThat(content.jsonPath().getString("type"))
        .isEqualTo("https://derive.dev/problems/password-required");
    assertThat(content.jsonPath().getString("title")).isEqualTo("Password required");
    assertThat(content.jsonPath().getString("id")).isEqualTo(failed);
    assertThat(content.jsonPath().getString("detail"))
        .contains("at step 1 (steps are numbered from 1): the PDF is encrypted");
  }

  /**
   * A retryable failure held by its backoff: {@code POST} answers 503 with {@code Retry-After} (ask
   * again then, it will be retried), and so does its {@code /content} (it answered 422, which tells
   * a client the derivative failed for good, though the next request after the backoff retries it).
   */
  @Test
  void contentOfARetryableFailureHeldByItsBackoffIsA503AsPostAnswersIt() {
    String body = request("photos/cat.jpg", 75);
    String failed = post(body).jsonPath().getString("id");
    ApiTestData.markJob(
        dynamoDb,
        failed,
        "FAILED",
        Map.of(
            ":error",
            ApiTestData.error("worker-failed", "out of memory", true),
            ":retryAfter",
            AttributeValue.fromN(Long.toString(System.currentTimeMillis() / 1000 + 60)),
            ":updatedAt",
            AttributeValue.fromN(Long.toString(System.currentTimeMillis()))));

    Response content =
        given().redirects().follow(false).when().get("/v1/derivatives/" + failed + "/content");
    Response again = post(body);

    assertThat(again.statusCode()).as(again.body().asString()).isEqualTo(503);
    assertThat(content.statusCode()).as(content.body().asString()).isEqualTo(503);
    assertThat(content.contentType()).startsWith(PROBLEM);
    assertThat(Integer.parseInt(content.header("Retry-After"))).isBetween(1, 60);
    assertThat(Integer.parseInt(again.header("Retry-After"))).isBetween(1, 60);
    assertThat(content.jsonPath().getString("type"))
        .isEqualTo(again.jsonPath().getString("type"))
        .isEqualTo("https://derive.dev/problems/worker-failed");
  }

  /**
   * A failed job's {@code error} in {@code GET} has the title its type has in every problem answer,
   * and counts its step from 1.
   */
  @Test
  void aFailedJobsErrorCarriesTheTitleOfItsType() {
    String failed = post(request("photos/cat.jpg", 74)).jsonPath().getString("id");
    ApiTestData.markJob(
        dynamoDb,
        failed,
        "FAILED",
        Map.of(":error", ApiTestData.error("corrupt-input", "bad huffman table")));

    given()
        .when()
        .get("/v1/derivatives/" + failed)
        .then()
        .statusCode(200)
        .body("error.type", equalTo("https://derive.dev/problems/corrupt-input"))
        .body("error.title", equalTo("Corrupt input"))
        .body("error.detail", equalTo("bad huffman table"))
        .body("error.step", equalTo(1));
  }

  /** A permanent error of the first step (stored index 0), as the progress function writes it. */
  @Test
  void anUnreachableTargetIsA422ListingTheReachableOnes() {
    post("{\"source\":{\"key\":\"photos/cat.jpg\"},\"target\":{\"mediaType\":\"text/plain\"}}")
        .then()
        .statusCode(422)
        .contentType(PROBLEM)
        .body("type", equalTo("https://derive.dev/problems/no-conversion"))
        .body(
            "reachable",
            org.hamcrest.Matchers.allOf(
                org.hamcrest.Matchers.hasItems(
                    "image/avif", "image/gif", "image/jpeg", "image/png", "image/webp"),
                org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem("text/plain"))));
  }

  @Test
  void statusShowsEachStepWithOperationsMediaTypesAndAttempts() {
    String id = post(request("photos/cat.jpg", 74)).jsonPath().getString("id");

    given()
        .when()
        .get("/v1/derivatives/" + id)
        .then()
        .statusCode(200)
        .body("steps[0].operations", org.hamcrest.Matchers.contains("resize", "encode"))
        .body("steps[0].inputMediaType", equalTo("image/jpeg"))
        .body("steps[0].outputMediaType", equalTo("image/jpeg"))
        .body("steps[0].attempts", equalTo(0))
        .body("steps[0].reused", equalTo(false));
  }

  @Test
  void aJpegOfAnAlreadyRenderedPageStartsAtTheImageStep() {
    s3.putObject(
        b -> b.bucket(LocalCloudResource.SOURCE_BUCKET).key("docs/paper.pdf"),
        RequestBody.fromBytes(MinimalPdf.page("", "", List.of())));
    String pdfQueue = ConfigProvider.getConfig().getValue("PDF_QUEUE_URL", String.class);
    String page =
        post("{\"source\":{\"key\":\"docs/paper.pdf\"},\"target\":{\"mediaType\":\"image/png\"}}")
            .jsonPath()
            .getString("id");
    s3.putObject(
        b -> b.bucket(LocalCloudResource.DERIVATIVES_BUCKET).key("derivatives/" + page),
        RequestBody.fromBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G'}));
    sqs.purgeQueue(b -> b.queueUrl(pdfQueue));
    sqs.purgeQueue(b -> b.queueUrl(queueUrl));

    // Without a box the page is rendered plain, as for the PNG (a box would be drawn into).
    Response thumb =
        post(
            "{\"source\":{\"key\":\"docs/paper.pdf\"},"
                + "\"target\":{\"mediaType\":\"image/jpeg\",\"quality\":60}}");

    thumb.then().statusCode(202);
    String id = thumb.jsonPath().getString("id");
    List<Message> imageSteps = queued();
    assertThat(imageSteps).hasSize(1);
    assertThat(imageSteps.get(0).messageAttributes().get("stepIndex").stringValue()).isEqualTo("1");
    assertThat(imageSteps.get(0).body())
        .contains("\"key\":\"derivatives/" + page + "\"")
        .contains("\"inputMediaType\":\"image/png\"");
    assertThat(sqs.receiveMessage(b -> b.queueUrl(pdfQueue).maxNumberOfMessages(10)).messages())
        .isEmpty();
    given()
        .when()
        .get("/v1/derivatives/" + id)
        .then()
        .statusCode(200)
        .body("steps[0].capability", equalTo("pdf"))
        .body("steps[0].status", equalTo("SUCCEEDED"))
        .body("steps[0].reused", equalTo(true))
        .body("steps[1].capability", equalTo("image"))
        .body("steps[1].status", equalTo("QUEUED"));
  }

  /**
   * Issue 14 item 13, the other direction: the page a JPEG chain rendered as its intermediate is
   * the PNG page asked for directly (same steps, same fingerprint), so it is served at once.
   */
  @Test
  void aDerivativeMadeAsAnIntermediateIsServedWhenAskedForDirectly() {
    s3.putObject(
        b -> b.bucket(LocalCloudResource.SOURCE_BUCKET).key("docs/report.pdf"),
        RequestBody.fromBytes(MinimalPdf.page("", "", List.of())));
    String pdfQueue = ConfigProvider.getConfig().getValue("PDF_QUEUE_URL", String.class);
    sqs.purgeQueue(b -> b.queueUrl(pdfQueue));
    post("{\"source\":{\"key\":\"docs/report.pdf\"},\"target\":{\"mediaType\":\"image/jpeg\"}}")
        .then()
        .statusCode(202);
    List<Message> render = sqs.receiveMessage(b -> b.queueUrl(pdfQueue)).messages();
    assertThat(render).hasSize(1);
    java.util.regex.Matcher output =
        java.util.regex.Pattern.compile("intermediates/([0-9a-f]{64})")
            .matcher(render.get(0).body());
    assertThat(output.find()).as(render.get(0).body()).isTrue();
    String page = output.group(1);
    s3.putObject(
        b -> b.bucket(LocalCloudResource.DERIVATIVES_BUCKET).key("intermediates/" + page),
        RequestBody.fromBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G'}));
    sqs.purgeQueue(b -> b.queueUrl(pdfQueue));

    post("{\"source\":{\"key\":\"docs/report.pdf\"},\"target\":{\"mediaType\":\"image/png\"}}")
        .then()
        .statusCode(200)
        .body("id", equalTo(page))
        .body("status", equalTo("SUCCEEDED"))
        .body("download.url", containsString("intermediates/" + page));
    assertThat(sqs.receiveMessage(b -> b.queueUrl(pdfQueue).maxNumberOfMessages(10)).messages())
        .isEmpty();
    given()
        .when()
        .get("/v1/derivatives/" + page)
        .then()
        .statusCode(200)
        .body("status", equalTo("SUCCEEDED"))
        .body("download.url", containsString("intermediates/" + page));
  }
}
