package dev.derive.infra.local.testfunction;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A tiny Lambda function the local cloud's tests package into a {@code function.zip} (this class at
 * the root, Jackson under {@code lib/}) and run through the runtime interface client.
 *
 * <ul>
 *   <li>HTTP API event: a path ending in {@code /sleep?ms=N} sleeps N ms first; {@code
 *       /big?bytes=N} answers N bytes; {@code /echo/...} answers the request's body (base64 as it
 *       came), content type and cookies back, with its path parameter and query parameters as
 *       {@code x-proxy}, {@code x-raw-query} and {@code x-color} headers; any other path answers
 *       201 with the event's parts, the contents of the files {@code LAYER_FILES} names ({@code
 *       :}-separated) and {@code LD_LIBRARY_PATH}, a header and a cookie.
 *   <li>SQS event: with {@code MODE=fail} throws; otherwise prints {@code batch: <bodies>}, and for
 *       each record: a body {@code sleep N} marks itself in flight (a file in {@code GAUGE_DIR}),
 *       prints {@code in flight: <marked files>}, sleeps N ms and unmarks; {@code nap N} only
 *       sleeps; a body containing {@code fail} is reported as a batch item failure.
 * </ul>
 */
public class TestFunction implements RequestStreamHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    JsonNode event = JSON.readTree(input);
    JsonNode answer = event.has("Records") ? sqs(event) : http(event, context);
    JSON.writeValue(output, answer);
  }

  private static JsonNode sqs(JsonNode event) throws IOException {
    if ("fail".equals(System.getenv("MODE"))) {
      throw new IllegalStateException("this function always fails");
    }
    List<String> bodies = new ArrayList<>();
    event.get("Records").forEach(r -> bodies.add(r.get("body").asText()));
    System.out.println("batch: " + String.join(",", bodies));
    ObjectNode response = JSON.createObjectNode();
    var failures = response.putArray("batchItemFailures");
    for (JsonNode record : event.get("Records")) {
      String body = record.get("body").asText();
      if (body.startsWith("sleep ")) {
        sleepInFlight(Long.parseLong(body.substring("sleep ".length()).trim()));
      } else if (body.startsWith("nap ")) {
        sleep(Long.parseLong(body.substring("nap ".length()).trim()));
      }
      if (body.contains("fail")) {
        failures.addObject().put("itemIdentifier", record.get("messageId").asText());
      }
    }
    return response;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Marks this invocation in flight while it sleeps, so a test can measure concurrency. */
  private static void sleepInFlight(long ms) throws IOException {
    Path gauge = Path.of(System.getenv("GAUGE_DIR"));
    Files.createDirectories(gauge);
    Path marker = gauge.resolve(UUID.randomUUID().toString());
    Files.createFile(marker);
    try (Stream<Path> inFlight = Files.list(gauge)) {
      System.out.println("in flight: " + inFlight.count());
    }
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      Files.deleteIfExists(marker);
    }
  }

  private static JsonNode echo(JsonNode event) {
    ObjectNode response = JSON.createObjectNode();
    response.put("statusCode", 200);
    response
        .putObject("headers")
        .put("content-type", event.path("headers").path("content-type").asText("text/plain"))
        .put("x-proxy", event.path("pathParameters").path("proxy").asText())
        .put("x-raw-query", event.path("rawQueryString").asText())
        .put("x-color", event.path("queryStringParameters").path("color").asText());
    var cookies = response.putArray("cookies");
    event.path("cookies").forEach(c -> cookies.add(c.asText() + "; Path=/"));
    response.set("body", event.path("body"));
    response.put("isBase64Encoded", event.path("isBase64Encoded").asBoolean());
    return response;
  }

  private static JsonNode http(JsonNode event, Context context) throws IOException {
    String path = event.path("rawPath").asText();
    if (path.startsWith("/echo/")) {
      return echo(event);
    }
    if (path.equals("/big")) {
      ObjectNode response = JSON.createObjectNode();
      response.put("statusCode", 200);
      response.put("body", "a".repeat(event.path("queryStringParameters").path("bytes").asInt()));
      return response;
    }
    if (path.endsWith("/sleep")) {
      sleep(event.path("queryStringParameters").path("ms").asLong());
    }
    ObjectNode echo = JSON.createObjectNode();
    echo.put("routeKey", event.path("routeKey").asText());
    echo.put("rawPath", event.path("rawPath").asText());
    echo.put("rawQueryString", event.path("rawQueryString").asText());
    echo.set("pathParameters", event.path("pathParameters"));
    echo.set("queryStringParameters", event.path("queryStringParameters"));
    echo.set("cookies", event.path("cookies"));
    echo.put("method", event.path("requestContext").path("http").path("method").asText());
    echo.put("xTest", event.path("headers").path("x-test").asText());
    echo.set("body", event.path("body"));
    echo.put("isBase64Encoded", event.path("isBase64Encoded").asBoolean());
    echo.put("greeting", System.getenv("GREETING"));
    echo.put("workQueueUrl", System.getenv("WORK_QUEUE_URL"));
    echo.put("endpoint", System.getenv("AWS_ENDPOINT_URL"));
    echo.put("functionName", context.getFunctionName());
    echo.put("remainingMs", context.getRemainingTimeInMillis());
    echo.put("maxHeapMb", Runtime.getRuntime().maxMemory() / (1024 * 1024));
    var layerFiles = echo.putObject("layerFiles");
    String files = System.getenv("LAYER_FILES");
    for (String file : files == null ? new String[0] : files.split(":")) {
      Path layerFile = Path.of(file);
      layerFiles.put(
          file, Files.isRegularFile(layerFile) ? Files.readString(layerFile) : "(absent)");
    }
    echo.put("ldLibraryPath", System.getenv("LD_LIBRARY_PATH"));
    System.out.println("echoing " + event.path("rawPath").asText());
    ObjectNode response = JSON.createObjectNode();
    response.put("statusCode", 201);
    response.putObject("headers").put("content-type", "application/json").put("x-echo", "yes");
    response.putArray("cookies").add("session=abc; Path=/");
    response.put("body", JSON.writeValueAsString(echo));
    return response;
  }
}
