package dev.derive.infra.local.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.local.lambda.InvocationResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The local HTTP API's own HTTP/1.1 handling, with a function that echoes its event: request
 * targets {@code com.sun.net.httpserver} refused, bodies, persistent connections (issue 14 item
 * 10).
 */
class HttpApiServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<JsonNode> events = new CopyOnWriteArrayList<>();
  private HttpApiServer server;

  @BeforeEach
  void start() {
    server =
        HttpApiServer.start(
            0,
            new RouteTable(
                List.of(new Route("GET", "/v1/items/{id}", "Echo"), new Route(null, null, "Echo"))),
            new HttpEventMapper("api", "123456789012", "us-east-1"),
            (function, event) -> {
              try {
                JsonNode parsed = JSON.readTree(event);
                events.add(parsed);
                String body =
                    JSON.writeValueAsString(
                        JSON.createObjectNode()
                            .put("rawPath", parsed.path("rawPath").asText())
                            .put("body", parsed.path("body").asText()));
                return new InvocationResult.Success(
                    JSON.writeValueAsBytes(
                        JSON.createObjectNode()
                            .put("statusCode", 200)
                            .put("body", body)
                            .set(
                                "headers",
                                JSON.createObjectNode()
                                    .put("content-type", "application/json")
                                    .put("x-bad", "a\r\nInjected: yes"))));
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            },
            line -> {},
            Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aPathWithBracesReachesItsRoutePercentEncodedNotAnHtmlError() throws IOException {
    String response =
        exchange("GET /v1/items/{id} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");

    assertThat(response).startsWith("HTTP/1.1 200 OK\r\n").doesNotContain("text/html");
    assertThat(events).hasSize(1);
    assertThat(events.get(0).path("rawPath").asText()).isEqualTo("/v1/items/{id}");
    assertThat(events.get(0).path("pathParameters").path("id").asText()).isEqualTo("{id}");
    assertThat(events.get(0).path("routeKey").asText()).isEqualTo("GET /v1/items/{id}");
  }

  @Test
  void theRootAndAStrayPercentReachTheDefaultRoute() throws IOException {
    exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    exchange("GET /a%zz/\"q\"?x={1} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");

    assertThat(events)
        .extracting(e -> e.path("rawPath").asText())
        .containsExactly("/", "/a%zz/\"q\"");
    assertThat(events.get(1).path("rawQueryString").asText()).isEqualTo("x=%7B1%7D");
    assertThat(events.get(1).path("routeKey").asText()).isEqualTo("$default");
  }

  /**
   * As an HTTP API does: the path is percent-decoded before it is routed and handed over ({@code
   * rawPath} and {@code requestContext.http.path} alike), so an escaped spelling of a route's
   * literal is that route, and the function never sees the escapes.
   */
  @Test
  void thePathIsPercentDecodedBeforeItIsRoutedAndHandedOver() throws IOException {
    exchange("GET /v1/%69tems/a%20b%2Fc HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    exchange(
        "GET /v1/%69tems/%C3%A9t%C3%A9 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");

    assertThat(events.get(0).path("routeKey").asText()).isEqualTo("$default");
    assertThat(events.get(0).path("rawPath").asText()).isEqualTo("/v1/items/a b/c");
    assertThat(events.get(0).path("requestContext").path("http").path("path").asText())
        .isEqualTo("/v1/items/a b/c");
    assertThat(events.get(1).path("routeKey").asText()).isEqualTo("GET /v1/items/{id}");
    assertThat(events.get(1).path("rawPath").asText()).isEqualTo("/v1/items/été");
    assertThat(events.get(1).path("pathParameters").path("id").asText()).isEqualTo("été");
  }

  /**
   * Issue 26 item 6, DNS rebinding: a web page whose own name now resolves to 127.0.0.1 reaches
   * this port from the browser with its own name in {@code Host}; only loopback names are answered,
   * whatever the port (a forwarded port keeps {@code localhost}).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "evil.example",
        "evil.example:3000",
        "127.0.0.1.evil.example",
        "10.0.0.1",
        "[::2]"
      })
  void aRequestForAnotherHostIsRefusedBeforeAnyRoute(String host) throws IOException {
    assertThat(getFor(host)).startsWith("HTTP/1.1 421 Misdirected Request\r\n");
    assertThat(events).isEmpty();
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "127.0.0.1",
        "127.0.0.1:3000",
        "localhost",
        "LOCALHOST:8080",
        "[::1]:3000",
        "app.localhost"
      })
  void loopbackHostNamesAreAnswered(String host) throws IOException {
    assertThat(getFor(host)).startsWith("HTTP/1.1 200 OK\r\n");
  }

  /** The response to a GET of a route with {@code host} in its {@code Host} header. */
  private String getFor(String host) throws IOException {
    return exchange("GET /v1/items/1 HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
  }

  @Test
  void aResponseHeaderThatWouldSplitTheResponseIsDropped() throws IOException {
    String response = exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");

    assertThat(response).doesNotContain("Injected").contains("content-type: application/json");
  }

  @Test
  void requestsOnOnePersistentConnectionWithLengthAndChunkedBodies() throws IOException {
    String response =
        exchange(
            "POST /one HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n"
                + "hello"
                + "POST /two HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n"
                + "GET /three HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");

    assertThat(response.split("HTTP/1.1 200 OK", -1)).hasSize(4);
    assertThat(events)
        .extracting(e -> e.path("body").asText())
        .containsExactly("hello", "abcde", "");
  }

  @Test
  void malformedRequestsAreApiGatewayStyle400s() throws IOException {
    assertThat(exchange("GET /a b HTTP/1.1\r\n\r\n"))
        .startsWith("HTTP/1.1 400 ")
        .endsWith("{\"message\":\"Bad Request\"}");
    assertThat(exchange("GET * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
        .startsWith("HTTP/1.1 400 ")
        .endsWith("{\"message\":\"Bad Request\"}");
    assertThat(events).isEmpty();
  }

  @Test
  void theJdkHttpClientGetsItsAnswers() throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    var response =
        client.send(
            java.net.http.HttpRequest.newBuilder(server.uri().resolve("/v1/items/7"))
                .POST(BodyPublishers.ofString("x"))
                .build(),
            BodyHandlers.ofString());
    var head =
        client.send(
            java.net.http.HttpRequest.newBuilder(server.uri().resolve("/v1/items/7"))
                .method("HEAD", BodyPublishers.noBody())
                .build(),
            BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("apigw-requestid")).isPresent();
    assertThat(JSON.readTree(response.body()).path("rawPath").asText()).isEqualTo("/v1/items/7");
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
  }

  /** Sends {@code request} as bytes and reads until the server closes the connection. */
  private String exchange(String request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.uri().getPort())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      in.transferTo(received);
      return received.toString(StandardCharsets.ISO_8859_1);
    }
  }
}
