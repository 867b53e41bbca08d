package dev.derive.infra.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import dev.derive.infra.local.http.HttpApiServer;
import dev.derive.infra.local.lambda.FunctionLauncher;
import dev.derive.infra.local.sqs.EventSourceMappingException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
    writeLayers(dir);
    endpoint = MotoServerEndpoint.start(Path.of("target/moto-local-cloud.log"));
    cloud =
        LocalCloud.start(
            LocalCloudOptions.builder(template)
                .stackName("local-test")
                .httpPort(0)
                .endpoint(endpoint)
                .pollWaitSeconds(1)
                .integrationTimeout(Duration.ofSeconds(3))
                .parameter("GaugeDir", dir.resolve("gauge").toString())
                .property("GatherQueue.VisibilityTimeout", "12")
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

  /** The layers of test-template.yaml: two zips, a folder, and one zip per architecture. */
  private static void writeLayers(Path dir) throws java.io.IOException {
    zip(
        dir.resolve("layer-one.zip"),
        Map.of("share/greeting.txt", "from layer one", "share/first.txt", "first, from layer one"));
    Files.createDirectories(dir.resolve("layer-two/share"));
    Files.writeString(dir.resolve("layer-two/share/greeting.txt"), "from layer two");
    zip(dir.resolve("layer-arm64.zip"), Map.of("share/arch.txt", "arm64"));
    zip(dir.resolve("layer-x86_64.zip"), Map.of("share/arch.txt", "x86_64"));
  }

  private static void zip(Path zip, Map<String, String> entries) throws java.io.IOException {
    try (var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(zip))) {
      for (Map.Entry<String, String> entry : entries.entrySet()) {
        out.putNextEntry(new java.util.zip.ZipEntry(entry.getKey()));
        out.write(entry.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        out.closeEntry();
      }
    }
  }

  @Test
  void aFunctionFindsItsLayersInItsOwnOptFolderLaterOnesWinningAndBuiltForThisMachine()
      throws Exception {
    JsonNode echo = JSON.readTree(get("/items/1").body());
    Path opt = dir.resolve(".derive/layers/EchoFunction").toAbsolutePath().normalize();
    JsonNode files = echo.path("layerFiles");

    // /opt/... in the template's variables is the function's own folder here
    assertThat(files.path(opt + "/share/greeting.txt").asText()).isEqualTo("from layer two");
    assertThat(files.path(opt + "/share/first.txt").asText()).isEqualTo("first, from layer one");
    // Arch (AllowedValues x86_64, arm64; default arm64) is this machine's, and so is the layer
    assertThat(files.path(opt + "/share/arch.txt").asText())
        .isEqualTo(FunctionLauncher.hostArchitecture());
    assertThat(echo.path("ldLibraryPath").asText()).endsWith(":" + opt + "/lib");
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
    assertThat(log)
        .anyMatch(l -> l.startsWith("REPORT RequestId: ") && l.contains("Init Duration: "));
    assertThat(log).anyMatch(l -> l.contains("echoing /items/log"));
    // an instance's end of Init is written before its first invocation reaches it
    int initReport = indexOf(log, "INIT_REPORT Init Duration: ");
    assertThat(initReport).isNotNegative().isLessThan(indexOf(log, "START RequestId: "));
    assertThat(log.get(initReport)).endsWith("\tPhase: init\tStatus: success");
  }

  @Test
  void anInvocationPastTheFunctionTimeoutIsReportedAsLambdaDoesAndTheInstanceIsReplaced()
      throws Exception {
    HttpResponse<String> slow = get("/sleep?ms=5000");
    // The replacement instance starts cold; on a busy machine its start can outlast this
    // template's short integration timeout (503, as API Gateway answers), so ask up to 3 times.
    HttpResponse<String> next = get("/items/after-timeout");
    for (int retry = 0; retry < 2 && next.statusCode() == 503; retry++) {
      next = get("/items/after-timeout");
    }

    assertThat(slow.statusCode()).isEqualTo(500);
    assertThat(slow.body()).isEqualTo("{\"message\":\"Internal Server Error\"}");
    assertThat(cloud.functionLog("EchoFunction"))
        .anyMatch(l -> l.matches(".* [0-9a-f-]{36} Task timed out after 2.00 seconds"));
    assertThat(next.statusCode()).isEqualTo(201);
  }

  @Test
  void aFunctionThatDoesNotAnswerWithinTheIntegrationTimeoutGets503() throws Exception {
    HttpResponse<String> slow = get("/slow/sleep?ms=3500");

    assertThat(slow.statusCode()).isEqualTo(503);
    assertThat(slow.body()).isEqualTo("{\"message\":\"Service Unavailable\"}");
  }

  @Test
  void theHeapIsLimitedFromMemorySize() throws Exception {
    JsonNode echo = JSON.readTree(get("/items/heap").body());

    assertThat(echo.path("maxHeapMb").asLong())
        .as("-Xmx is %d%% of MemorySize 256", FunctionLauncher.HEAP_PERCENT)
        .isBetween(150L, 256L * FunctionLauncher.HEAP_PERCENT / 100);
  }

  @Test
  void binaryBodiesRepeatedQueryParametersCookiesAndGreedyPathParametersRoundTrip()
      throws Exception {
    byte[] body = new byte[256 * 4];
    for (int i = 0; i < body.length; i++) {
      body[i] = (byte) i;
    }
    HttpResponse<byte[]> response =
        HTTP.send(
            HttpRequest.newBuilder(
                    cloud.apiUri().resolve("/echo/a/b%20c/d?color=red&color=blue&x=%2F"))
                .header("Content-Type", "application/octet-stream")
                .header("Cookie", "first=1; second=two")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo(body);
    assertThat(response.headers().firstValue("content-type")).hasValue("application/octet-stream");
    assertThat(response.headers().firstValue("x-proxy")).hasValue("a/b c/d");
    assertThat(response.headers().firstValue("x-raw-query")).hasValue("color=red&color=blue&x=%2F");
    assertThat(response.headers().firstValue("x-color")).hasValue("red,blue");
    assertThat(response.headers().allValues("set-cookie"))
        .containsExactly("first=1; Path=/", "second=two; Path=/");
  }

  @Test
  void aRequestBodyOverTenMegabytesGets413FromTheGateway() throws Exception {
    HttpResponse<String> response =
        post("/echo/big", new byte[HttpApiServer.MAX_REQUEST_BYTES + 1]);

    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(response.body()).isEqualTo("{\"message\":\"Request Entity Too Large\"}");
  }

  @Test
  void anEventOverLambdasSixMegabytesGets413() throws Exception {
    // 5 MB of binary is about 6.7 MB as the event's base64 body.
    HttpResponse<String> response = post("/echo/big", new byte[5 * 1024 * 1024]);

    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(response.body()).isEqualTo("{\"message\":\"Request Entity Too Large\"}");
  }

  @Test
  void aResponseOverLambdasSixMegabytesGets502() throws Exception {
    HttpResponse<String> fits = get("/big?bytes=" + 5_000_000);
    HttpResponse<String> tooLarge = get("/big?bytes=" + 6_300_000);

    assertThat(fits.statusCode()).isEqualTo(200);
    assertThat(fits.body()).hasSize(5_000_000);
    assertThat(tooLarge.statusCode()).isEqualTo(502);
    assertThat(tooLarge.body()).isEqualTo("{\"message\":\"Internal Server Error\"}");
  }

  @Test
  void theBatchingWindowGroupsMessagesSentApart() throws Exception {
    int messages = 6;
    for (int i = 1; i <= messages; i++) {
      int n = i;
      sqs.sendMessage(b -> b.queueUrl(cloud.queueUrl("GatherQueue")).messageBody("gather-" + n));
      Thread.sleep(250);
    }

    List<String> batches =
        await(
            () -> {
              List<String> seen =
                  cloud.functionLog("WorkerFunction").stream()
                      .filter(l -> l.startsWith("batch: gather-"))
                      .toList();
              long delivered = seen.stream().mapToLong(l -> l.split(",").length).sum();
              return delivered >= messages ? seen : null;
            },
            20_000,
            messages + " gathered messages");

    // Sent 250 ms apart within a 3 s window: each of the event's two pollers invokes at most once.
    assertThat(batches).hasSizeLessThanOrEqualTo(2);
  }

  @Test
  void maximumConcurrencyIsReachedAndNeverExceeded() throws Exception {
    int messages = 8;
    for (int i = 0; i < messages; i++) {
      sqs.sendMessage(b -> b.queueUrl(cloud.queueUrl("CrowdQueue")).messageBody("sleep 800"));
    }

    List<Integer> inFlight =
        await(
            () -> {
              List<Integer> counts =
                  cloud.functionLog("SleeperFunction").stream()
                      .filter(l -> l.startsWith("in flight: "))
                      .map(l -> Integer.parseInt(l.substring("in flight: ".length())))
                      .toList();
              return counts.size() >= messages ? counts : null;
            },
            30_000,
            messages + " invocations");

    assertThat(inFlight).as("ScalingConfig.MaximumConcurrency: 2").allMatch(n -> n <= 2);
    assertThat(inFlight).contains(2);
  }

  @Test
  void reservedConcurrencyCapsTheFunctionBelowItsEventSourcesConcurrency() throws Exception {
    int messages = 4;
    for (int i = 0; i < messages; i++) {
      sqs.sendMessage(b -> b.queueUrl(cloud.queueUrl("SoloQueue")).messageBody("sleep 600"));
    }

    List<Integer> inFlight =
        await(
            () -> {
              List<Integer> counts =
                  cloud.functionLog("SoloFunction").stream()
                      .filter(l -> l.startsWith("in flight: "))
                      .map(l -> Integer.parseInt(l.substring("in flight: ".length())))
                      .toList();
              return counts.size() >= messages ? counts : null;
            },
            30_000,
            messages + " invocations");

    assertThat(inFlight).as("ReservedConcurrentExecutions: 1").containsOnly(1);
  }

  @Test
  void aMessageWhoseInvocationTimesOutIsRetriedAndThenRedriven() throws Exception {
    int logBefore = cloud.functionLog("SleeperFunction").size();
    sqs.sendMessage(b -> b.queueUrl(cloud.queueUrl("SlowQueue")).messageBody("nap 6000"));

    Message dead = awaitMessage(cloud.queueUrl("SlowDeadLetterQueue"), 40_000);
    List<String> timeouts =
        await(
            () -> {
              List<String> lines =
                  cloud.functionLog("SleeperFunction").stream()
                      .skip(logBefore)
                      .filter(l -> l.endsWith("Task timed out after 4.00 seconds"))
                      .toList();
              return lines.size() >= 2 ? lines : null;
            },
            10_000,
            "two timed-out invocations");

    assertThat(dead.body()).isEqualTo("nap 6000");
    assertThat(timeouts).as("delivered maxReceiveCount (2) times, timed out each time").hasSize(2);
  }

  @Test
  void aPartialBatchFailureDeletesOnlyTheMessagesThatSucceeded() throws Exception {
    sqs.sendMessageBatch(
        b ->
            b.queueUrl(cloud.queueUrl("WorkQueue"))
                .entries(entry("1", "ok-1"), entry("2", "fail-2"), entry("3", "ok-3")));

    Message dead = awaitMessage(cloud.queueUrl("WorkDeadLetterQueue"));

    assertThat(dead.body()).isEqualTo("fail-2");
    assertThat(deliveries("WorkerFunction", "ok-1")).isEqualTo(1);
    assertThat(deliveries("WorkerFunction", "ok-3")).isEqualTo(1);
    assertThat(deliveries("WorkerFunction", "fail-2")).as("maxReceiveCount 2").isEqualTo(2);
    assertThat(queueDepth(cloud.queueUrl("WorkQueue"))).isZero();
  }

  @Test
  void aFunctionErrorLeavesTheWholeBatchOnTheQueueUntilItIsRedrivenToTheDeadLetterQueue()
      throws Exception {
    sqs.sendMessageBatch(
        b ->
            b.queueUrl(cloud.queueUrl("PoisonQueue"))
                .entries(entry("1", "poison-1"), entry("2", "poison-2")));

    Message first = awaitMessage(cloud.queueUrl("PoisonDeadLetterQueue"));
    Message second = awaitMessage(cloud.queueUrl("PoisonDeadLetterQueue"));

    assertThat(List.of(first.body(), second.body()))
        .containsExactlyInAnyOrder("poison-1", "poison-2");
    assertThat(cloud.deliveredMessages("FailingFunction"))
        .as("each received maxReceiveCount (2) times")
        .isEqualTo(4);
    assertThat(cloud.functionLog("FailingFunction"))
        .anyMatch(l -> l.contains("this function always fails"));
  }

  @Test
  void aPropertyOverrideReplacesTheTemplatesValue() {
    String visibilityTimeout =
        sqs.getQueueAttributes(
                b ->
                    b.queueUrl(cloud.queueUrl("GatherQueue"))
                        .attributeNames(QueueAttributeName.VISIBILITY_TIMEOUT))
            .attributes()
            .get(QueueAttributeName.VISIBILITY_TIMEOUT);

    assertThat(visibilityTimeout).as("the template says 10").isEqualTo("12");
  }

  @Test
  void aKilledInstanceFailsItsInvocationAsLambdaSaysAndTheMessageGoesToANewInstance()
      throws Exception {
    int logBefore = cloud.functionLog("SleeperFunction").size();
    sqs.sendMessage(b -> b.queueUrl(cloud.queueUrl("VictimQueue")).messageBody("nap 2500"));
    await(() -> batchesSince(logBefore, "nap 2500") == 1 ? true : null, 20_000, "the first batch");

    List<Long> busy = cloud.busyProcessIds("SleeperFunction");
    assertThat(busy).as("the instance running the invocation").hasSize(1);
    ProcessHandle instance = ProcessHandle.of(busy.get(0)).orElseThrow();
    assertThat(instance.info().commandLine())
        .hasValueSatisfying(c -> assertThat(c).contains("AWSLambda"));
    assertThat(instance.destroyForcibly()).isTrue();
    instance.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);

    List<String> lost =
        await(
            () -> {
              List<String> lines =
                  cloud.functionLog("SleeperFunction").stream()
                      .skip(logBefore)
                      .filter(
                          l -> l.contains("Runtime exited with") || l.equals("Runtime.ExitError"))
                      .toList();
              return lines.size() >= 2 ? lines : null;
            },
            10_000,
            "Lambda's lines for the lost invocation");
    assertThat(lost.get(0))
        .matches("RequestId: [0-9a-f-]{36} Error: Runtime exited with signal: killed");
    assertThat(lost.get(1)).isEqualTo("Runtime.ExitError");
    // redelivered after the queue's 4 s visibility timeout, to another instance
    await(() -> batchesSince(logBefore, "nap 2500") == 2 ? true : null, 20_000, "the redelivery");
    assertThat(cloud.busyProcessIds("SleeperFunction"))
        .singleElement()
        .isNotEqualTo(instance.pid());
    await(
        () -> queueDepth(cloud.queueUrl("VictimQueue")) == 0 ? true : null,
        10_000,
        "the redelivered message deleted");
  }

  private static long batchesSince(int logLine, String body) {
    return cloud.functionLog("SleeperFunction").stream()
        .skip(logLine)
        .filter(l -> l.equals("batch: " + body))
        .count();
  }

  /** How many batches the function printed that held {@code body}. */
  private static long deliveries(String function, String body) {
    return cloud.functionLog(function).stream()
        .filter(l -> l.startsWith("batch: "))
        .filter(l -> List.of(l.substring("batch: ".length()).split(",")).contains(body))
        .count();
  }

  @Test
  void aQueueWhoseVisibilityTimeoutIsShorterThanTheFunctionTimeoutIsRefusedAsLambdaDoes()
      throws Exception {
    Path template = dir.resolve("refused.yaml");
    Files.writeString(
        template,
        """
        Transform: AWS::Serverless-2016-10-31
        Resources:
          ShortQueue:
            Type: AWS::SQS::Queue
            Properties:
              VisibilityTimeout: 3
          SlowWorker:
            Type: AWS::Serverless::Function
            Properties:
              Runtime: java21
              Handler: dev.derive.infra.local.testfunction.TestFunction::handleRequest
              CodeUri: function.zip
              Timeout: 5
              Events:
                Work:
                  Type: SQS
                  Properties:
                    Queue: !GetAtt ShortQueue.Arn
        """);

    assertThatThrownBy(
            () ->
                LocalCloud.start(
                    LocalCloudOptions.builder(template)
                        .stackName("refused")
                        .httpPort(0)
                        .endpoint(endpoint)
                        .workDir(dir.resolve("refused"))
                        .build()))
        .isInstanceOf(EventSourceMappingException.class)
        .hasMessageContaining(
            "Queue visibility timeout: 3 seconds is less than Function timeout: 5");
  }

  private static SendMessageBatchRequestEntry entry(String id, String body) {
    return SendMessageBatchRequestEntry.builder().id(id).messageBody(body).build();
  }

  private static Message awaitMessage(String queueUrl) throws InterruptedException {
    return awaitMessage(queueUrl, 20_000);
  }

  private static Message awaitMessage(String queueUrl, long timeoutMs) throws InterruptedException {
    return await(
        () ->
            sqs
                .receiveMessage(b -> b.queueUrl(queueUrl).waitTimeSeconds(1).maxNumberOfMessages(1))
                .messages()
                .stream()
                .findFirst()
                .orElse(null),
        timeoutMs,
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

  private static HttpResponse<String> post(String path, byte[] body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(cloud.apiUri().resolve(path))
            .header("Content-Type", "application/octet-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(String path) throws Exception {
    URI uri = cloud.apiUri().resolve(path);
    return HTTP.send(
        HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static int indexOf(List<String> lines, String prefix) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(prefix)) {
        return i;
      }
    }
    return -1;
  }
}
