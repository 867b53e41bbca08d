package dev.derive.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.local.LocalCloud;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Completion events and callbacks end to end on the local cloud, as {@code ./derive up} runs it (a
 * callback signing key, loopback receivers allowed, completion events recorded in a queue): every
 * job end is one EventBridge event on the stack's bus, and every request that named a callback gets
 * one signed POST for itself, whether it started the job, hit the cache or met a failure; a
 * receiver that fails is tried again after the (shortened) pause. The receiver here checks the
 * signature as docs/completion-events.md tells a receiver to, with no Derive code.
 */
@ExtendWith(LocalCloudExtension.class)
class CompletionEventsEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static Queue<String> LOG;

  private record Received(String path, Map<String, List<String>> headers, String body) {}

  private static final Queue<Received> RECEIVED = new ConcurrentLinkedQueue<>();
  private static final Map<String, AtomicInteger> FAILURES_TO_COME = new ConcurrentHashMap<>();

  private static String callbackKey;
  private static LocalCloud cloud;
  private static DeriveApi api;
  private static HttpServer receiver;
  private static SqsClient sqs;
  private static Path samples;

  @BeforeAll
  static void startAReceiver(SharedLocalCloud shared) throws Exception {
    LOG = shared.log();
    callbackKey = shared.callbackSigningKey();
    samples = shared.samples();
    receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    receiver.createContext(
        "/",
        exchange -> {
          String body =
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          String path = exchange.getRequestURI().getPath();
          RECEIVED.add(new Received(path, exchange.getRequestHeaders(), body));
          AtomicInteger failures = FAILURES_TO_COME.get(path);
          boolean fail = failures != null && failures.getAndDecrement() > 0;
          exchange.sendResponseHeaders(fail ? 500 : 204, -1);
          exchange.close();
        });
    receiver.start();
    cloud = shared.cloud();
    api = new DeriveApi(cloud.apiUri());
    sqs = AwsClients.sqs(cloud.endpoint());
  }

  @AfterAll
  static void stop() {
    if (sqs != null) {
      sqs.close();
    }
    if (receiver != null) {
      receiver.stop(0);
    }
  }

  private String hook(String name) {
    return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/" + name;
  }

  private static String thumbnail(String key, int size, String callback) {
    return "{\"source\":{\"key\":\""
        + key
        + "\"},\"target\":{\"mediaType\":\"image/jpeg\",\"width\":"
        + size
        + ",\"height\":"
        + size
        + "},\"callback\":\""
        + callback
        + "\"}";
  }

  private static JsonNode json(String line) {
    try {
      return JSON.readTree(line);
    } catch (java.io.IOException notJson) {
      return JSON.createObjectNode();
    }
  }

  @Test
  void aFinishedJobPublishesOneEventAndCallsItsRequestBackOnceSigned() throws Exception {
    String key = api.upload(samples.resolve("exif/Portrait_5.jpg"));
    HttpResponse<String> accepted = api.post("/v1/derivatives", thumbnail(key, 97, hook("first")));
    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
    String id = api.id(accepted);

    Received callback = awaitOne(r -> r.path().equals("/first"));
    JsonNode body = JSON.readTree(callback.body());
    assertThat(body.path("type").asText()).isEqualTo("Derivative Succeeded");
    assertThat(body.path("detail").path("fingerprint").asText()).isEqualTo(id);
    assertThat(body.path("request").path("target").path("width").asInt()).isEqualTo(97);
    assertThat(body.path("eventId").asText()).startsWith(id + ":");
    assertThat(header(callback, "Derive-Delivery-Id")).isEqualTo(body.path("id").asText());
    assertSignedWithTheCallbackKey(callback);

    List<JsonNode> events =
        awaitEvents(e -> e.path("detail").path("fingerprint").asText().equals(id));
    assertThat(events).hasSize(1);
    assertThat(events.get(0).path("detail-type").asText()).isEqualTo("Derivative Succeeded");
    assertThat(events.get(0).path("detail").path("eventId").asText())
        .isEqualTo(body.path("eventId").asText());
    assertThat(LOG).anyMatch(l -> l.contains("completion event " + body.path("eventId").asText()));
    // the callback function's lines about this delivery name its job and execution (issue 13)
    String execution = body.path("eventId").asText().substring(id.length() + 1);
    List<JsonNode> delivered =
        cloud.functionLog("CallbackFunction").stream()
            .filter(l -> l.contains("delivered on attempt"))
            .map(CompletionEventsEndToEndTest::json)
            .filter(n -> n.path("mdc").path("jobId").asText().equals(id))
            .toList();
    assertThat(delivered).as(cloud.functionLog("CallbackFunction").toString()).hasSize(1);
    assertThat(delivered.get(0).path("mdc").path("executionId").asText()).isEqualTo(execution);
    assertThat(delivered.get(0).path("mdc").path("requestId").asText()).isNotBlank();

    // the same request again is answered from the cache, called back at once, and ends no job
    HttpResponse<String> cached = api.post("/v1/derivatives", thumbnail(key, 97, hook("again")));
    assertThat(cached.statusCode()).isEqualTo(200);
    JsonNode hit = JSON.readTree(awaitOne(r -> r.path().equals("/again")).body());
    assertThat(hit.path("detail").path("cached").asBoolean()).isTrue();
    assertThat(hit.path("detail").path("fingerprint").asText()).isEqualTo(id);

    Thread.sleep(2000); // room for a duplicate to show itself
    assertThat(RECEIVED).filteredOn(r -> r.path().equals("/first")).hasSize(1);
    assertThat(events(e -> e.path("detail").path("fingerprint").asText().equals(id))).isEmpty();
  }

  /**
   * The {@code info} preset (what an upload preset makes on upload, through the same progress
   * function): its event and its callback carry the derivative's own JSON as {@code summary}.
   */
  @Test
  void anInfoDerivativesEventCarriesItsValuesAsItsSummary() throws Exception {
    String key = api.upload(samples.resolve("exif/Portrait_5.jpg"));
    HttpResponse<String> accepted =
        api.post(
            "/v1/derivatives",
            "{\"source\":{\"key\":\""
                + key
                + "\"},\"preset\":\"info\",\"callback\":\""
                + hook("info")
                + "\"}");
    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
    String id = api.id(accepted);

    JsonNode callback = JSON.readTree(awaitOne(r -> r.path().equals("/info")).body());
    List<JsonNode> events =
        awaitEvents(e -> e.path("detail").path("fingerprint").asText().equals(id));
    JsonNode info = JSON.readTree(api.download(api.awaitSucceeded(id)));
    JsonNode summary = events.getFirst().path("detail").path("summary");
    assertThat(summary).as(events.toString()).isEqualTo(info);
    assertThat(summary.path("mediaType").asText()).isEqualTo("image/jpeg");
    assertThat(summary.path("width").asInt()).isPositive();
    assertThat(summary.path("thumbHash").asText()).isNotBlank();
    assertThat(callback.path("detail").path("summary")).isEqualTo(summary);
  }

  @Test
  void aFailedJobPublishesDerivativeFailedAndCallsBackWithItsError() throws Exception {
    Path corrupt = Files.createTempFile("corrupt", ".jpg");
    byte[] bytes = new byte[4096];
    new SecureRandom().nextBytes(bytes);
    bytes[0] = (byte) 0xFF;
    bytes[1] = (byte) 0xD8;
    bytes[2] = (byte) 0xFF;
    bytes[3] = (byte) 0xE0;
    Files.write(corrupt, bytes);
    String key = api.upload(corrupt, "image/jpeg");
    HttpResponse<String> accepted = api.post("/v1/derivatives", thumbnail(key, 64, hook("broken")));
    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
    String id = api.id(accepted);

    JsonNode body = JSON.readTree(awaitOne(r -> r.path().equals("/broken")).body());
    assertThat(body.path("type").asText()).isEqualTo("Derivative Failed");
    assertThat(body.path("detail").path("error").path("step").asInt()).isEqualTo(1);
    assertThat(body.path("detail").path("error").path("type").asText()).isNotBlank();
    List<JsonNode> events =
        awaitEvents(e -> e.path("detail").path("fingerprint").asText().equals(id));
    assertThat(events).hasSize(1);
    assertThat(events.get(0).path("detail-type").asText()).isEqualTo("Derivative Failed");
  }

  @Test
  void aReceiverThatFailsIsTriedAgainWithTheSameDeliveryIdAndBody() throws Exception {
    FAILURES_TO_COME.put("/flaky", new AtomicInteger(1));
    String key = api.upload(samples.resolve("exif/Portrait_5.jpg"));
    HttpResponse<String> accepted = api.post("/v1/derivatives", thumbnail(key, 83, hook("flaky")));
    assertThat(accepted.statusCode()).as(accepted.body()).isIn(200, 202);

    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (RECEIVED.stream().filter(r -> r.path().equals("/flaky")).count() < 2
        && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    List<Received> attempts = RECEIVED.stream().filter(r -> r.path().equals("/flaky")).toList();
    assertThat(attempts).as("a failed attempt and the retry").hasSize(2);
    assertThat(attempts.get(1).body()).isEqualTo(attempts.get(0).body());
    assertThat(header(attempts.get(1), "Derive-Delivery-Id"))
        .isEqualTo(header(attempts.get(0), "Derive-Delivery-Id"));
    assertSignedWithTheCallbackKey(attempts.get(1));
    assertThat(LOG).anyMatch(l -> l.contains("failed on attempt 1 (HTTP 500)"));
  }

  @Test
  void aCallbackToAPrivateAddressIsRefusedAsProblemJsonEvenLocally() throws Exception {
    String key = api.upload(samples.resolve("exif/Portrait_5.jpg"));

    HttpResponse<String> refused =
        api.post("/v1/derivatives", thumbnail(key, 64, "https://10.1.2.3/hook"));

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.headers().firstValue("content-type")).hasValue("application/problem+json");
    assertThat(JSON.readTree(refused.body()).path("errors").get(0).path("pointer").asText())
        .isEqualTo("/callback");
  }

  /** As a receiver does it (docs/completion-events.md): HMAC-SHA256 of "t.body", hex. */
  private static void assertSignedWithTheCallbackKey(Received callback) throws Exception {
    String signature = header(callback, "Derive-Signature");
    assertThat(signature).matches("t=\\d+(,v1=[0-9a-f]{64})+");
    String t = signature.substring(2, signature.indexOf(','));
    assertThat(Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(t))).isLessThan(300);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(HexFormat.of().parseHex(callbackKey), "HmacSHA256"));
    String expected =
        HexFormat.of()
            .formatHex(mac.doFinal((t + "." + callback.body()).getBytes(StandardCharsets.UTF_8)));
    String given = signature.substring(signature.indexOf("v1=") + 3).split(",")[0];
    assertThat(MessageDigest.isEqual(expected.getBytes(), given.getBytes())).isTrue();
  }

  private static String header(Received r, String name) {
    return r.headers().entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase(name))
        .map(e -> e.getValue().get(0))
        .findFirst()
        .orElse(null);
  }

  private static Received awaitOne(Predicate<Received> which) throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (System.nanoTime() < deadline) {
      for (Received r : RECEIVED) {
        if (which.test(r)) {
          return r;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no callback arrived within " + PATIENCE);
  }

  private static final List<JsonNode> SEEN_EVENTS = new ArrayList<>();

  /** The completion events recorded since the last call that match {@code which}. */
  private static synchronized List<JsonNode> events(Predicate<JsonNode> which) throws IOException {
    String queue = cloud.queueUrl("CompletionEventsQueue");
    List<JsonNode> matching = new ArrayList<>();
    while (true) {
      List<Message> messages =
          sqs.receiveMessage(b -> b.queueUrl(queue).maxNumberOfMessages(10)).messages();
      if (messages.isEmpty()) {
        break;
      }
      for (Message m : messages) {
        SEEN_EVENTS.add(JSON.readTree(m.body()));
        sqs.deleteMessage(b -> b.queueUrl(queue).receiptHandle(m.receiptHandle()));
      }
    }
    for (JsonNode event : new ArrayList<>(SEEN_EVENTS)) {
      if (which.test(event)) {
        matching.add(event);
        SEEN_EVENTS.remove(event);
      }
    }
    return matching;
  }

  private static List<JsonNode> awaitEvents(Predicate<JsonNode> which) throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    List<JsonNode> found = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      found.addAll(events(which));
      if (!found.isEmpty()) {
        Thread.sleep(1000); // a duplicate would come right behind
        found.addAll(events(which));
        return found;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no completion event within " + PATIENCE);
  }
}
