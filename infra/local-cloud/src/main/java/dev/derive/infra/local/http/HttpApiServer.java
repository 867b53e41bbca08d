package dev.derive.infra.local.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.derive.infra.local.lambda.FunctionInvoker;
import dev.derive.infra.local.lambda.InvocationResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The local HTTP API: serves {@code 127.0.0.1:<port>}, routes each request with a {@link
 * RouteTable}, invokes the route's function with a payload format 2.0 event and sends back the
 * mapped response. No route gives {@code 404 {"message":"Not Found"}}; a body over API Gateway's 10
 * MB limit {@code 413 {"message":"Request Entity Too Large"}}; an invocation that has not answered
 * within the integration timeout (API Gateway's is 30 s) {@code 503 {"message":"Service
 * Unavailable"}}, while the invocation itself runs on to its own end. Every response carries an
 * {@code apigw-requestid} header. See
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html.
 */
public final class HttpApiServer implements AutoCloseable {
  /** API Gateway HTTP API's request payload limit: 10 MB. */
  public static final int MAX_REQUEST_BYTES = 10 * 1024 * 1024;

  /** API Gateway HTTP API's integration timeout: 30 s. */
  public static final Duration INTEGRATION_TIMEOUT = Duration.ofSeconds(30);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SecureRandom RANDOM = new SecureRandom();

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final RouteTable routes;
  private final HttpEventMapper events;
  private final FunctionInvoker invoker;
  private final Consumer<String> log;
  private final Duration integrationTimeout;

  private HttpApiServer(
      HttpServer server,
      RouteTable routes,
      HttpEventMapper events,
      FunctionInvoker invoker,
      Consumer<String> log,
      Duration integrationTimeout) {
    this.integrationTimeout = integrationTimeout;
    this.server = server;
    this.routes = routes;
    this.events = events;
    this.invoker = invoker;
    this.log = log;
  }

  /**
   * Starts serving on 127.0.0.1:{@code port} ({@code 0} picks a free port).
   *
   * @param log receives one access-log line per request
   * @param integrationTimeout how long to wait for a function ({@link #INTEGRATION_TIMEOUT} on AWS)
   * @throws UncheckedIOException if the port cannot be bound
   */
  public static HttpApiServer start(
      int port,
      RouteTable routes,
      HttpEventMapper events,
      FunctionInvoker invoker,
      Consumer<String> log,
      Duration integrationTimeout) {
    try {
      HttpServer http =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
      HttpApiServer api = new HttpApiServer(http, routes, events, invoker, log, integrationTimeout);
      http.createContext("/", api::handle);
      http.setExecutor(api.executor);
      http.start();
      return api;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serve the HTTP API on 127.0.0.1:" + port, e);
    }
  }

  /** The base URI, e.g. {@code http://127.0.0.1:3000}. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String requestId = requestId();
      HttpResponse response;
      String routeKey = "-";
      try {
        byte[] body = readBody(exchange);
        if (body == null) {
          response = HttpResponse.message(413, "Request Entity Too Large");
        } else {
          HttpRequest request = request(exchange, body);
          Optional<RouteTable.Match> match = routes.find(request.method(), request.rawPath());
          if (match.isEmpty()) {
            response = HttpResponse.message(404, "Not Found");
          } else {
            routeKey = match.get().route().routeKey();
            byte[] event = JSON.writeValueAsBytes(events.event(request, match.get(), requestId));
            InvocationResult result = invokeWithin(match.get().route().target(), event);
            if (result == null) {
              log.accept(
                  "HTTP "
                      + routeKey
                      + " -> no answer within the integration timeout of "
                      + integrationTimeout.toMillis()
                      + " ms");
              response = HttpResponse.message(503, "Service Unavailable");
            } else if (result instanceof InvocationResult.Failure failure) {
              log.accept(
                  "HTTP "
                      + routeKey
                      + " -> function error "
                      + failure.errorType()
                      + ": "
                      + failure.errorMessage());
              response = HttpResponseMapper.response(result);
            } else {
              response = HttpResponseMapper.response(result);
            }
          }
        }
      } catch (JsonProcessingException | RuntimeException e) {
        log.accept("HTTP request failed: " + e);
        response = HttpResponse.message(500, "Internal Server Error");
      }
      send(exchange, response, requestId);
      log.accept(
          "HTTP "
              + exchange.getRequestMethod()
              + " "
              + exchange.getRequestURI().getRawPath()
              + " ("
              + routeKey
              + ") "
              + response.status());
    }
  }

  /** The invocation's result, or {@code null} if it did not end within the integration timeout. */
  private InvocationResult invokeWithin(String functionId, byte[] event) {
    CompletableFuture<InvocationResult> invocation =
        CompletableFuture.supplyAsync(() -> invoker.invoke(functionId, event), executor);
    try {
      return invocation.get(integrationTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return InvocationResult.Failure.of("Runtime.Unknown", "interrupted");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    }
  }

  private static HttpRequest request(HttpExchange exchange, byte[] body) {
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    exchange
        .getRequestHeaders()
        .forEach((name, values) -> values.forEach(v -> headers.add(Map.entry(name, v))));
    URI uri = exchange.getRequestURI();
    return new HttpRequest(
        exchange.getRequestMethod(),
        uri.getRawPath() == null ? "/" : uri.getRawPath(),
        uri.getRawQuery() == null ? "" : uri.getRawQuery(),
        headers,
        body,
        exchange.getRemoteAddress().getAddress().getHostAddress(),
        exchange.getProtocol());
  }

  /** The body, or {@code null} if it exceeds {@link #MAX_REQUEST_BYTES}. */
  private static byte[] readBody(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(MAX_REQUEST_BYTES + 1);
      return body.length > MAX_REQUEST_BYTES ? null : body;
    }
  }

  private static void send(HttpExchange exchange, HttpResponse response, String requestId)
      throws IOException {
    var headers = exchange.getResponseHeaders();
    for (Map.Entry<String, String> header : response.headers()) {
      if (!header.getKey().equalsIgnoreCase("content-length")) {
        headers.add(header.getKey(), header.getValue());
      }
    }
    headers.set("apigw-requestid", requestId);
    boolean noBody =
        response.body().length == 0
            || exchange.getRequestMethod().equals("HEAD")
            || response.status() == 204
            || response.status() == 304;
    exchange.sendResponseHeaders(response.status(), noBody ? -1 : response.body().length);
    if (!noBody) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(response.body());
      }
    }
  }

  /** An id in the style of API Gateway's ({@code apigw-requestid}). */
  private static String requestId() {
    byte[] bytes = new byte[10];
    RANDOM.nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes).replace('/', 'A').replace('+', 'B');
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
