package dev.derive.infra.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Runs a small template on a real moto server with a real function ({@code TestFunction}, zipped by
 * the test) in its own JVM through the AWS Lambda runtime interface client.
 */
class LocalCloudTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path dir;
  private static MotoServerEndpoint endpoint;
  private static LocalCloud cloud;
  private static SqsClient sqs;

  @BeforeAll
  static void start() throws Exception {
    Path template = dir.resolve("template.yaml");
    try (InputStream in =
        Objects.requireNonNull(LocalCloudTest.class.getResourceAsStream("/test-template.yaml"))) {
      Files.copy(in, template);
    }
    TestFunctionPackage.write(dir.resolve("function.zip"));
    endpoint = MotoServerEndpoint.start(Path.of("target/moto-local-cloud.log"));
    cloud =
        LocalCloud.start(
            LocalCloudOptions.builder(template)
                .stackName("local-test")
                .httpPort(0)
                .endpoint(endpoint)
                .pollWaitSeconds(1)
                .build());
    sqs = AwsClients.sqs(endpoint);
  }

  @AfterAll
  static void stop() {
    if (cloud != null) {
      cloud.close();
    }
    if (sqs != null) {
      sqs.close();
    }
    if (endpoint != null) {
      endpoint.close();
    }
  }

  @Test
  void anHttpRequestReachesTheFunctionAsAPayloadV2EventAndItsResponseComesBack() throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(cloud.apiUri().resolve("/items/42?color=red&color=blue&n=1"))
                .header("X-Test", "yes")
                .header("Cookie", "c=1")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"x\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    JsonNode echo = JSON.readTree(response.body());

    assertThat(response.statusCode()).isEqualTo(201);
    assertThat(response.headers().firstValue("x-echo")).hasValue("yes");
    assertThat(response.headers().allValues("set-cookie")).containsExactly("session=abc; Path=/");
    assertThat(echo.path("routeKey").asText()).isEqualTo("POST /items/{id}");
    assertThat(echo.path("method").asText()).isEqualTo("POST");
    assertThat(echo.path("pathParameters").path("id").asText()).isEqualTo("42");
    assertThat(echo.path("rawQueryString").asText()).isEqualTo("color=red&color=blue&n=1");
    assertThat(echo.path("queryStringParameters").path("color").asText()).isEqualTo("red,blue");
    assertThat(echo.path("cookies").get(0).asText()).isEqualTo("c=1");
    assertThat(echo.path("xTest").asText()).isEqualTo("yes");
    assertThat(echo.path("body").asText()).isEqualTo("{\"name\":\"x\"}");
    assertThat(echo.path("isBase64Encoded").asBoolean()).isFalse();
  }

  @Test
  void theFunctionGetsTheTemplateEnvironmentTheEndpointAndItsContext() throws Exception {
    JsonNode echo = JSON.readTree(get("/items/1").body());

    assertThat(echo.path("greeting").asText()).isEqualTo("hi from the function");
    assertThat(echo.path("workQueueUrl").asText()).isEqualTo(cloud.queueUrl("WorkQueue"));
    assertThat(echo.path("endpoint").asText()).isEqualTo(endpoint.uri().toString());
    assertThat(echo.path("functionName").asText()).isEqualTo("local-test-EchoFunction");
    assertThat(echo.path("remainingMs").asLong()).isBetween(1L, 2000L);
  }

  @Test
  void aRequestWithoutARouteGets404LikeApiGateway() throws Exception {
    HttpResponse<String> response = get("/nothing/here");

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body()).isEqualTo("{\"message\":\"Not Found\"}");
  }

  @Test
  void theFunctionLogHasLambdaStyleLinesAndTheFunctionsOutput() throws Exception {
    get("/items/log");

    List<String> log = cloud.functionLog("EchoFunction");
    assertThat(log).anyMatch(l -> l.startsWith("START RequestId: "));
    assertThat(log).anyMatch(l -> l.startsWith("END RequestId: "));
    assertThat(log).anyMatch(l -> l.startsWith("REPORT RequestId: ") && l.contains("Duration: "));
    assertThat(log).anyMatch(l -> l.contains("Init Duration: "));
    assertThat(log).anyMatch(l -> l.contains("echoing /items/log"));
  }

  @Test
  void anInvocationPastTheTimeoutFailsAndTheInstanceIsReplaced() throws Exception {
    HttpResponse<String> slow = get("/sleep?ms=5000");
    HttpResponse<String> next = get("/items/after-timeout");

    assertThat(slow.statusCode()).isEqualTo(503);
    assertThat(cloud.functionLog("EchoFunction"))
        .anyMatch(l -> l.contains("Task timed out after 2.00 seconds"));
    assertThat(next.statusCode()).isEqualTo(201);
  }

  @Test
  void aPartialBatchFailureDeletesOnlyTheMessagesThatSucceeded() throws Exception {
    sqs.sendMessageBatch(
        b ->
            b.queueUrl(cloud.queueUrl("WorkQueue"))
                .entries(entry("1", "ok-1"), entry("2", "fail-2"), entry("3", "ok-3")));

    Message dead = awaitMessage(cloud.queueUrl("WorkDeadLetterQueue"));

    assertThat(dead.body()).isEqualTo("fail-2");
    assertThat(cloud.deliveredMessages("WorkerFunction"))
        .as("ok-1 and ok-3 once, fail-2 twice (maxReceiveCount 2)")
        .isEqualTo(4);
    assertThat(queueDepth(cloud.queueUrl("WorkQueue"))).isZero();
  }

  @Test
  void aFunctionErrorLeavesTheBatchOnTheQueueUntilItIsRedrivenToTheDeadLetterQueue()
      throws Exception {
    sqs.sendMessage(b -> b.queueUrl(cloud.queueUrl("PoisonQueue")).messageBody("poison"));

    Message dead = awaitMessage(cloud.queueUrl("PoisonDeadLetterQueue"));

    assertThat(dead.body()).isEqualTo("poison");
    assertThat(cloud.deliveredMessages("FailingFunction")).isEqualTo(2);
    assertThat(cloud.functionLog("FailingFunction"))
        .anyMatch(l -> l.contains("this function always fails"));
  }

  private static SendMessageBatchRequestEntry entry(String id, String body) {
    return SendMessageBatchRequestEntry.builder().id(id).messageBody(body).build();
  }

  private static Message awaitMessage(String queueUrl) throws InterruptedException {
    return await(
        () ->
            sqs
                .receiveMessage(b -> b.queueUrl(queueUrl).waitTimeSeconds(1).maxNumberOfMessages(1))
                .messages()
                .stream()
                .findFirst()
                .orElse(null),
        20_000,
        "a message on " + queueUrl);
  }

  private static int queueDepth(String queueUrl) {
    Map<QueueAttributeName, String> attributes =
        sqs.getQueueAttributes(
                b ->
                    b.queueUrl(queueUrl)
                        .attributeNames(
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
            .attributes();
    return Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
        + Integer.parseInt(
            attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
  }

  private static <T> T await(Supplier<T> probe, long timeoutMs, String what)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (System.currentTimeMillis() < deadline) {
      T value = probe.get();
      if (value != null) {
        return value;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + what);
  }

  private static HttpResponse<String> get(String path) throws Exception {
    URI uri = cloud.apiUri().resolve(path);
    return HTTP.send(
        HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
  }
}
