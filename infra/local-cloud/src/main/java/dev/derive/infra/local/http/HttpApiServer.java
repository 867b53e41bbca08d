package dev.derive.infra.local.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.local.lambda.FunctionInvoker;
import dev.derive.infra.local.lambda.InvocationResult;
import java.io.IOException;
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
 * {@code apigw-requestid} header. The web console ({@link ConsoleSite}) answers its own paths
 * before the routes are looked at. Any request-target reaches the routes (over {@link
 * NettyHttpServer}), with characters a URI path may not hold percent-encoded. A request for a host
 * that is not a loopback name is answered {@code 421 Misdirected Request} before anything else
 * ({@link #isLoopbackName}: DNS rebinding). See
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html.
 */
// Over 300 lines because API Gateway's edge rules (404, 413, 503, 421) sit on one request path.
public final class HttpApiServer implements AutoCloseable {
  /** API Gateway HTTP API's request payload limit: 10 MB. */
  public static final int MAX_REQUEST_BYTES = 10 * 1024 * 1024;

  /** API Gateway HTTP API's integration timeout: 30 s. */
  public static final Duration INTEGRATION_TIMEOUT = Duration.ofSeconds(30);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SecureRandom RANDOM = new SecureRandom();

  private NettyHttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final RouteTable routes;
  private final HttpEventMapper events;
  private final FunctionInvoker invoker;
  private final Consumer<String> log;
  private final Duration integrationTimeout;
  private final ConsoleSite console;

  private HttpApiServer(
      ConsoleSite console,
      RouteTable routes,
      HttpEventMapper events,
      FunctionInvoker invoker,
      Consumer<String> log,
      Duration integrationTimeout) {
    this.integrationTimeout = integrationTimeout;
    this.console = console;
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
    return start(port, ConsoleSite.none(), routes, events, invoker, log, integrationTimeout);
  }

  /**
   * Starts serving on 127.0.0.1:{@code port}, {@code console}'s pages first and the routes after
   * (see {@link ConsoleSite#answer}).
   *
   * @throws UncheckedIOException if the port cannot be bound
   */
  public static HttpApiServer start(
      int port,
      ConsoleSite console,
      RouteTable routes,
      HttpEventMapper events,
      FunctionInvoker invoker,
      Consumer<String> log,
      Duration integrationTimeout) {
    HttpApiServer api =
        new HttpApiServer(console, routes, events, invoker, log, integrationTimeout);
    try {
      api.server =
          NettyHttpServer.start(
              new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
              MAX_REQUEST_BYTES,
              api.executor,
              api::handle);
      return api;
    } catch (IOException e) {
      api.executor.shutdownNow();
      throw new UncheckedIOException("cannot serve the HTTP API on 127.0.0.1:" + port, e);
    }
  }

  /** The base URI, e.g. {@code http://127.0.0.1:3000}. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  private HttpResponse handle(NettyHttpServer.Request received) {
    String requestId = requestId();
    HttpResponse response;
    String routeKey = "-";
    try {
      HttpRequest request = received.body() == null ? null : request(received);
      Optional<HttpResponse> page =
          request == null ? Optional.empty() : console.answer(request.method(), request.rawPath());
      Optional<String> host = host(received);
      if (host.isEmpty()) {
        response = HttpResponse.message(400, "Bad Request");
      } else if (!isLoopbackName(host.get())) {
        routeKey = "not a loopback host: " + host.get().replaceAll("[^\\x21-\\x7e]", "?");
        response = HttpResponse.message(421, "Misdirected Request");
      } else if (received.body() == null) {
        response = HttpResponse.message(413, "Request Entity Too Large");
      } else if (request == null) {
        response = HttpResponse.message(400, "Bad Request");
      } else if (page.isPresent()) {
        routeKey = "console";
        response = page.get();
      } else {
        Optional<RouteTable.Match> match =
            routes.find(request.method(), PercentDecoding.decode(request.rawPath()));
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
          } else {
            if (result instanceof InvocationResult.Failure failure) {
              log.accept(
                  "HTTP "
                      + routeKey
                      + " -> function error "
                      + failure.errorType()
                      + ": "
                      + failure.errorMessage());
            }
            response = HttpResponseMapper.response(result);
          }
        }
      }
    } catch (JsonProcessingException | RuntimeException e) {
      log.accept("HTTP request failed: " + e);
      response = HttpResponse.message(500, "Internal Server Error");
    }
    List<Map.Entry<String, String>> headers = new ArrayList<>(response.headers());
    headers.removeIf(h -> h.getKey().equalsIgnoreCase("apigw-requestid"));
    headers.add(Map.entry("apigw-requestid", requestId));
    log.accept(
        "HTTP "
            + received.method()
            + " "
            + received.target()
            + " ("
            + routeKey
            + ") "
            + response.status());
    return new HttpResponse(response.status(), headers, response.body());
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

  /**
   * The host the request is for: the authority of an absolute-form target, else the {@code Host}
   * header (RFC 9112 section 3.2.2); empty when it names none.
   */
  static Optional<String> host(NettyHttpServer.Request received) {
    String target = received.target();
    if (target.startsWith("http://") || target.startsWith("https://")) {
      int start = target.indexOf("//") + 2;
      int end = target.indexOf('/', start);
      return Optional.of(end < 0 ? target.substring(start) : target.substring(start, end))
          .filter(h -> !h.isEmpty());
    }
    return received.headers().stream()
        .filter(h -> h.getKey().equalsIgnoreCase("host"))
        .map(h -> h.getValue().trim())
        .filter(h -> !h.isEmpty())
        .findFirst();
  }

  /**
   * Whether {@code host} (a {@code Host} value, port optional) is a loopback name: {@code
   * localhost} or a name under it (RFC 6761 section 6.3: browsers resolve them to loopback
   * themselves), {@code 127.0.0.1} or {@code [::1]}. The server listens on loopback only, but a web
   * page whose own name is made to resolve to 127.0.0.1 (DNS rebinding) reaches it from the browser
   * with that name in {@code Host}; answering only loopback names keeps such a page from driving
   * the API and reading its answers. Any port: a forwarded port keeps the name.
   */
  static boolean isLoopbackName(String host) {
    String h = host.toLowerCase(java.util.Locale.ROOT);
    String name;
    String port;
    if (h.startsWith("[")) {
      int close = h.indexOf(']');
      name = close < 0 ? h : h.substring(0, close + 1);
      port = close < 0 ? "" : h.substring(close + 1);
    } else {
      int colon = h.lastIndexOf(':');
      name = colon < 0 ? h : h.substring(0, colon);
      port = colon < 0 ? "" : h.substring(colon);
    }
    boolean loopback =
        name.equals("localhost")
            || name.endsWith(".localhost")
            || name.equals("127.0.0.1")
            || name.equals("[::1]");
    return loopback && (port.isEmpty() || port.matches(":[0-9]{1,5}"));
  }

  /**
   * The request as the function sees it, or {@code null} for a target that is not a path. The path
   * and query keep their percent-encoding; a character that may not appear there unencoded (RFC
   * 3986 section 3.3: a brace, a double quote, a byte outside ASCII, a {@code %} without two hex
   * digits ...) is percent-encoded, as a browser sends it, so the function always gets a valid URI.
   */
  static HttpRequest request(NettyHttpServer.Request received) {
    String target = received.target();
    if (target.startsWith("http://") || target.startsWith("https://")) {
      int slash = target.indexOf('/', target.indexOf("//") + 2);
      target = slash < 0 ? "/" : target.substring(slash); // absolute-form, RFC 9112 section 3.2.2
    }
    if (!target.startsWith("/")) {
      return null;
    }
    int hash = target.indexOf('#');
    if (hash >= 0) {
      target = target.substring(0, hash);
    }
    int question = target.indexOf('?');
    String path = question < 0 ? target : target.substring(0, question);
    String query = question < 0 ? "" : target.substring(question + 1);
    return new HttpRequest(
        received.method(),
        encodeOutside(path, "/:@"),
        encodeOutside(query, "/:@?"),
        received.headers(),
        received.body(),
        received.remoteAddress(),
        received.version());
  }

  /**
   * {@code raw} with every character percent-encoded that is neither unreserved nor a sub-delim
   * (RFC 3986 section 2), nor in {@code allowed}, nor part of a well-formed {@code %XX} escape;
   * each character stands for one byte.
   */
  static String encodeOutside(String raw, String allowed) {
    StringBuilder out = new StringBuilder(raw.length() + 8);
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      boolean keep =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "-._~!$&'()*+,;=".indexOf(c) >= 0
              || allowed.indexOf(c) >= 0
              || (c == '%'
                  && i + 2 < raw.length()
                  && Character.digit(raw.charAt(i + 1), 16) >= 0
                  && Character.digit(raw.charAt(i + 2), 16) >= 0);
      if (keep) {
        out.append(c);
      } else {
        out.append('%').append(HEX.charAt((c >> 4) & 0xF)).append(HEX.charAt(c & 0xF));
      }
    }
    return out.toString();
  }

  private static final String HEX = "0123456789ABCDEF";

  /** An id in the style of API Gateway's ({@code apigw-requestid}). */
  private static String requestId() {
    byte[] bytes = new byte[10];
    RANDOM.nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes).replace('/', 'A').replace('+', 'B');
  }

  @Override
  public void close() {
    server.close();
    executor.shutdownNow();
  }
}
