package dev.derive.coordinator.completion;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.derive.coordinator.url.SigningKeySource;
import dev.derive.coordinator.url.UrlSigningKeys;
import dev.derive.coordinator.validate.CallbackUrlPolicy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One callback attempt against a real HTTP server on loopback. */
class CallbackSenderTest {
  private static final String KEY = "ab".repeat(32);
  private static final UrlSigningKeys KEYS = UrlSigningKeys.parse(KEY);
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);

  private record Received(Map<String, List<String>> headers, String body) {}

  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final HttpServer server;
  private int status = 204;

  CallbackSenderTest() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String body =
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          received.add(new Received(exchange.getRequestHeaders(), body));
          if (status / 100 == 3) {
            exchange.getResponseHeaders().add("Location", url("/elsewhere"));
          }
          exchange.sendResponseHeaders(status, -1);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  private CallbackSender local() {
    return new CallbackSender(
        SigningKeySource.fixed(KEYS),
        CallbackUrlPolicy.allowingLoopback(),
        InetAddress::getAllByName,
        CLOCK);
  }

  private CallbackDelivery delivery(String url) {
    return new CallbackDelivery("d-1", url, "{\"id\":\"d-1\",\"type\":\"Derivative Succeeded\"}");
  }

  @Test
  void postsTheBodySignedSoAReceiverVerifiesIt() {
    CallbackSender.Attempt attempt = local().send(delivery(url("/hook")));

    assertThat(attempt.delivered()).isTrue();
    Received got = received.get(0);
    assertThat(got.body()).isEqualTo(delivery(url("/hook")).body());
    assertThat(got.headers().get("Derive-delivery-id")).containsExactly("d-1");
    assertThat(got.headers().get("Content-type")).containsExactly("application/json");
    String signature = got.headers().get("Derive-signature").get(0);
    assertThat(signature).startsWith("t=" + CLOCK.instant().getEpochSecond() + ",v1=");
    assertThat(
            CallbackSignature.verifies(
                KEYS, signature, got.body(), CLOCK.instant().getEpochSecond(), 300))
        .isTrue();
    assertThat(
            CallbackSignature.verifies(
                KEYS, signature, got.body() + " ", CLOCK.instant().getEpochSecond(), 300))
        .isFalse();
    assertThat(
            CallbackSignature.verifies(
                KEYS, signature, got.body(), CLOCK.instant().getEpochSecond() + 301, 300))
        .isFalse();
  }

  @Test
  void signsWithEveryKeyDuringARotationTheNewOneFirst() {
    UrlSigningKeys rotating = UrlSigningKeys.parse("cd".repeat(32) + " " + KEY);

    String header = CallbackSignature.header(rotating, 1, "{}");

    assertThat(header.split(",")).hasSize(3);
    assertThat(CallbackSignature.verifies(KEYS, header, "{}", 1, 300)).isTrue();
    assertThat(
            CallbackSignature.verifies(UrlSigningKeys.parse("cd".repeat(32)), header, "{}", 1, 300))
        .isTrue();
  }

  @Test
  void theHexSignatureIsHmacSha256OfTimestampDotBody() throws Exception {
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
    mac.init(
        new javax.crypto.spec.SecretKeySpec(java.util.HexFormat.of().parseHex(KEY), "HmacSHA256"));
    String expected =
        java.util.HexFormat.of().formatHex(mac.doFinal("42.{}".getBytes(StandardCharsets.UTF_8)));

    assertThat(CallbackSignature.header(KEYS, 42, "{}")).isEqualTo("t=42,v1=" + expected);
  }

  @Test
  void aServerErrorIsNotDelivered() {
    status = 500;

    CallbackSender.Attempt attempt = local().send(delivery(url("/hook")));

    assertThat(attempt.delivered()).isFalse();
    assertThat(attempt.outcome()).isEqualTo("HTTP 500");
  }

  @Test
  void aRedirectIsNotFollowed() {
    status = 302;

    CallbackSender.Attempt attempt = local().send(delivery(url("/hook")));

    assertThat(attempt.delivered()).isFalse();
    assertThat(attempt.outcome()).contains("redirects are not followed");
    assertThat(received).hasSize(1);
  }

  @Test
  void deployedItRefusesAHostThatResolvesToAPrivateAddress() {
    CallbackSender deployed =
        new CallbackSender(
            SigningKeySource.fixed(KEYS),
            CallbackUrlPolicy.deployed(),
            host -> new InetAddress[] {InetAddress.getByName("169.254.169.254")},
            CLOCK);

    CallbackSender.Attempt attempt = deployed.send(delivery("https://hooks.example.com/x"));

    assertThat(attempt.delivered()).isFalse();
    assertThat(attempt.outcome()).contains("non-public address 169.254.169.254");
  }

  @Test
  void deployedItRefusesLoopbackBeforeConnecting() {
    CallbackSender deployed =
        new CallbackSender(
            SigningKeySource.fixed(KEYS),
            CallbackUrlPolicy.deployed(),
            InetAddress::getAllByName,
            CLOCK);

    assertThat(deployed.send(delivery(url("/hook"))).delivered()).isFalse();
    assertThat(received).isEmpty();
  }

  private CallbackSender resolvingTo(CallbackUrlPolicy policy, String... addresses) {
    return new CallbackSender(
        SigningKeySource.fixed(KEYS),
        policy,
        host -> {
          InetAddress[] answer = new InetAddress[addresses.length];
          for (int i = 0; i < addresses.length; i++) {
            answer[i] = InetAddress.getByName(addresses[i]);
          }
          return answer;
        },
        CLOCK);
  }

  /** Issue 26 item 3: a DNS answer is judged by the address it reaches, in any IPv6 spelling. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "::169.254.169.254",
        "::ffff:169.254.169.254",
        "64:ff9b::a9fe:a9fe",
        "2002:a9fe:a9fe::1",
        "2001:0:4136:e378:8000:63bf:56fe:5601",
        "fd00::1"
      })
  void deployedItRefusesAHostWhoseAaaaRecordEmbedsAPrivateAddress(String address) {
    CallbackSender.Attempt attempt =
        resolvingTo(CallbackUrlPolicy.deployed(), "93.184.215.14", address)
            .send(delivery("https://hooks.example.com/x"));

    assertThat(attempt.delivered()).isFalse();
    assertThat(attempt.outcome()).contains("non-public address");
  }

  /**
   * Issue 26 item 3: with loopback receivers allowed (the local cloud), a name that resolves to a
   * private address is refused all the same (docs/completion-events.md: "even then").
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"10.0.0.7", "169.254.169.254", "64:ff9b::a9fe:a9fe", "fd00::1"})
  void locallyItStillRefusesAHostThatResolvesToAPrivateAddress(String address) {
    CallbackSender.Attempt attempt =
        resolvingTo(CallbackUrlPolicy.allowingLoopback(), address)
            .send(delivery("https://hooks.example.com/x"));

    assertThat(attempt.delivered()).isFalse();
    assertThat(attempt.outcome()).contains("non-public address");
    assertThat(received).isEmpty();
  }

  @Test
  void locallyAHostThatResolvesToLoopbackIsCalled() {
    CallbackSender.Attempt attempt =
        resolvingTo(CallbackUrlPolicy.allowingLoopback(), "127.0.0.1")
            .send(delivery("http://localhost:" + server.getAddress().getPort() + "/hook"));

    assertThat(attempt.delivered()).isTrue();
  }

  /**
   * Issue 26 item 4: a URL the HTTP client cannot send to (a port out of range, queued before
   * /callback checked ports) is a failed attempt, not an exception out of the callback function.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"http://127.0.0.1:99999/hook", "http://127.0.0.1:0/hook", "ftp://127.0.0.1/x"})
  void aUrlTheClientCannotSendToIsAFailedAttempt(String url) {
    CallbackSender.Attempt attempt = local().send(delivery(url));

    assertThat(attempt.delivered()).isFalse();
    assertThat(attempt.outcome()).startsWith("refused: ");
  }

  @Test
  void retriesBackOffFourfoldUpToSixHours() {
    CallbackRetries retries = new CallbackRetries(java.time.Duration.ofSeconds(30));

    assertThat(retries.delayAfter(1)).hasSeconds(30);
    assertThat(retries.delayAfter(2)).hasSeconds(120);
    assertThat(retries.delayAfter(5)).hasSeconds(7680);
    assertThat(retries.delayAfter(7)).isEqualTo(CallbackRetries.MAX_DELAY);
  }
}
