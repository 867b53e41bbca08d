package dev.derive.infra.local.lambda;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The Lambda Runtime API (version 2018-06-01) for one execution environment, served on a free
 * loopback port: {@code GET /runtime/invocation/next} (held open until there is an invocation, as
 * the runtime interface client expects), {@code POST /runtime/invocation/{id}/response}, {@code
 * POST /runtime/invocation/{id}/error} and {@code POST /runtime/init/error}. See
 * https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html.
 */
public final class RuntimeApiServer implements AutoCloseable {
  /**
   * Lambda's limit on a synchronous response payload: "6 MB", in fact 6,291,556 bytes (the figure
   * its {@code Function.ResponseSizeTooLarge} error names).
   */
  public static final int MAX_RESPONSE_BYTES = 6_291_556;

  private static final String PREFIX = "/2018-06-01/runtime/";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final BlockingQueue<Invocation> pending = new LinkedBlockingQueue<>();
  private final Map<String, Invocation> inFlight = new ConcurrentHashMap<>();
  private final CompletableFuture<Long> initialized = new CompletableFuture<>();
  private volatile boolean closed;

  private RuntimeApiServer(HttpServer server) {
    this.server = server;
  }

  /**
   * Starts a server on a free port of 127.0.0.1.
   *
   * @throws FunctionStartException if no port can be bound
   */
  public static RuntimeApiServer start() {
    try {
      HttpServer http =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
      RuntimeApiServer api = new RuntimeApiServer(http);
      http.createContext(PREFIX, api::handle);
      http.setExecutor(api.executor);
      http.start();
      return api;
    } catch (IOException e) {
      throw new FunctionStartException("cannot start a Runtime API server", e);
    }
  }

  /** The {@code host:port} to give the runtime as {@code AWS_LAMBDA_RUNTIME_API}. */
  public String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  /**
   * Completes with the time (epoch milliseconds) of the runtime's first {@code next} request, i.e.
   * when its initialisation finished; fails if it reports an init error or exits first.
   */
  public CompletableFuture<Long> initialized() {
    return initialized;
  }

  /** Queues {@code invocation} for the runtime's next {@code next} request. */
  public void submit(Invocation invocation) {
    pending.add(invocation);
  }

  /** Fails initialisation and every queued or running invocation with {@code failure}. */
  public void fail(InvocationResult.Failure failure) {
    initialized.completeExceptionally(new FunctionStartException(failure.errorMessage()));
    Invocation invocation;
    while ((invocation = pending.poll()) != null) {
      invocation.result().complete(failure);
    }
    inFlight.values().forEach(i -> i.result().complete(failure));
    inFlight.clear();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
      String method = exchange.getRequestMethod();
      if (method.equals("GET") && path.equals("invocation/next")) {
        next(exchange);
      } else if (method.equals("POST") && path.equals("init/error")) {
        InvocationResult.Failure failure = failure(exchange, "Runtime.InitError");
        initialized.completeExceptionally(
            new FunctionStartException(
                "init error " + failure.errorType() + ": " + failure.errorMessage()));
        respond(exchange, 202, "{\"status\":\"OK\"}");
      } else if (method.equals("POST") && path.startsWith("invocation/")) {
        String rest = path.substring("invocation/".length());
        int slash = rest.indexOf('/');
        String requestId = slash < 0 ? rest : rest.substring(0, slash);
        String action = slash < 0 ? "" : rest.substring(slash + 1);
        Invocation invocation = inFlight.remove(requestId);
        if (invocation == null || !(action.equals("response") || action.equals("error"))) {
          respond(
              exchange,
              400,
              "{\"errorMessage\":\"Invalid request ID\",\"errorType\":\"InvalidRequestID\"}");
          return;
        }
        invocation
            .result()
            .complete(
                action.equals("response") ? response(exchange) : failure(exchange, "Unhandled"));
        respond(exchange, 202, "{\"status\":\"OK\"}");
      } else {
        respond(exchange, 404, "{\"errorMessage\":\"Not found\",\"errorType\":\"NotFound\"}");
      }
    }
  }

  private void next(HttpExchange exchange) throws IOException {
    initialized.complete(System.currentTimeMillis());
    Invocation invocation = null;
    try {
      while (invocation == null) {
        if (closed) {
          respond(exchange, 500, "{\"errorMessage\":\"shutting down\"}");
          return;
        }
        invocation = pending.poll(200, TimeUnit.MILLISECONDS);
        if (invocation != null && invocation.result().isDone()) {
          invocation = null; // timed out before the runtime asked for it
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    inFlight.put(invocation.requestId(), invocation);
    var headers = exchange.getResponseHeaders();
    headers.set("Content-Type", "application/json");
    headers.set("Lambda-Runtime-Aws-Request-Id", invocation.requestId());
    headers.set("Lambda-Runtime-Deadline-Ms", Long.toString(invocation.deadlineEpochMs()));
    headers.set("Lambda-Runtime-Invoked-Function-Arn", invocation.functionArn());
    headers.set("Lambda-Runtime-Trace-Id", invocation.traceId());
    exchange.sendResponseHeaders(
        200, invocation.payload().length == 0 ? -1 : invocation.payload().length);
    try (OutputStream body = exchange.getResponseBody()) {
      body.write(invocation.payload());
    }
  }

  private static InvocationResult response(HttpExchange exchange) throws IOException {
    byte[] payload = readBody(exchange);
    if (payload.length > MAX_RESPONSE_BYTES) {
      return InvocationResult.Failure.of(
          "Function.ResponseSizeTooLarge",
          "Response payload size exceeded maximum allowed payload size ("
              + MAX_RESPONSE_BYTES
              + " bytes).");
    }
    return new InvocationResult.Success(payload);
  }

  /** Reads Lambda's error document: {@code {"errorMessage","errorType","stackTrace"}}. */
  private static InvocationResult.Failure failure(HttpExchange exchange, String fallbackType)
      throws IOException {
    byte[] body = readBody(exchange);
    String type = exchange.getRequestHeaders().getFirst("Lambda-Runtime-Function-Error-Type");
    String message = "";
    try {
      JsonNode document = JSON.readTree(body);
      if (document != null && document.isObject()) {
        message = document.path("errorMessage").asText("");
        if (type == null && document.hasNonNull("errorType")) {
          type = document.get("errorType").asText();
        }
      }
    } catch (IOException notJson) {
      message = new String(body, StandardCharsets.UTF_8);
    }
    return new InvocationResult.Failure(type == null ? fallbackType : type, message, body);
  }

  private static byte[] readBody(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      return in.readAllBytes();
    }
  }

  private static void respond(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream body = exchange.getResponseBody()) {
      body.write(bytes);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.stop(0);
    executor.shutdownNow();
  }
}
