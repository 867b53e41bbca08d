package dev.derive.infra.local.testfunction;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A tiny Lambda function the local cloud's tests package into a {@code function.zip} (this class at
 * the root, Jackson under {@code lib/}) and run through the runtime interface client.
 *
 * <ul>
 *   <li>HTTP API event: {@code /sleep?ms=N} sleeps N ms; any other path answers 201 with the
 *       event's parts, a header and a cookie.
 *   <li>SQS event: with {@code MODE=fail} throws; otherwise reports every record whose body
 *       contains {@code fail} as a batch item failure.
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

  private static JsonNode sqs(JsonNode event) {
    if ("fail".equals(System.getenv("MODE"))) {
      throw new IllegalStateException("this function always fails");
    }
    System.out.println("batch of " + event.get("Records").size());
    ObjectNode response = JSON.createObjectNode();
    var failures = response.putArray("batchItemFailures");
    for (JsonNode record : event.get("Records")) {
      if (record.get("body").asText().contains("fail")) {
        failures.addObject().put("itemIdentifier", record.get("messageId").asText());
      }
    }
    return response;
  }

  private static JsonNode http(JsonNode event, Context context) throws IOException {
    if (event.path("rawPath").asText().equals("/sleep")) {
      try {
        Thread.sleep(event.path("queryStringParameters").path("ms").asLong());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
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
    System.out.println("echoing " + event.path("rawPath").asText());
    ObjectNode response = JSON.createObjectNode();
    response.put("statusCode", 201);
    response.putObject("headers").put("content-type", "application/json").put("x-echo", "yes");
    response.putArray("cookies").add("session=abc; Path=/");
    response.put("body", JSON.writeValueAsString(echo));
    return response;
  }
}
