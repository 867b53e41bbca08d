package dev.derive.coordinator.api;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Invokes the API function with an API Gateway HTTP API event (payload 2.0) built here, as API
 * Gateway sends it: with the route key of the route it chose, which the mock event server's own
 * HTTP-to-event translation leaves out, and the path percent-decoded. The event goes, through the
 * function's entry point's rewriting ({@link ApiEntryPoint#withUriPath}), to the mock server's raw
 * event endpoint ({@code POST /_lambda_}), whose answer is the function's {@code
 * APIGatewayV2HTTPResponse}.
 */
final class ApiGatewayEvents {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The function's answer: status, headers (lower-cased names) and the body as JSON. */
  record Answer(int status, Map<String, String> headers, JsonNode body) {
    /** The header {@code name}, or null. */
    String header(String name) {
      return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }
  }

  private ApiGatewayEvents() {}

  /**
   * {@code GET rawPath} as API Gateway would pass it for a request it routed to {@code routeKey}
   * (the path already percent-decoded, as an HTTP API does), with {@code headers}.
   */
  static Answer get(String routeKey, String rawPath, Map<String, String> headers) {
    ObjectNode event = JSON.createObjectNode();
    event.put("version", "2.0");
    event.put("routeKey", routeKey);
    event.put("rawPath", rawPath);
    event.put("rawQueryString", "");
    ObjectNode headerNode = event.putObject("headers");
    headerNode.put("host", "api.example.com");
    headers.forEach(headerNode::put);
    ObjectNode context = event.putObject("requestContext");
    context.put("accountId", "123456789012");
    context.put("apiId", "api");
    context.put("domainName", "api.example.com");
    context.put("requestId", "test");
    context.put("routeKey", routeKey);
    context.put("stage", "$default");
    context.put("timeEpoch", System.currentTimeMillis());
    ObjectNode http = context.putObject("http");
    http.put("method", "GET");
    http.put("path", rawPath);
    http.put("protocol", "HTTP/1.1");
    http.put("sourceIp", "192.0.2.1");
    http.put("userAgent", "test");
    event.put("isBase64Encoded", false);
    try {
      JsonNode response =
          JSON.readTree(
              given()
                  .contentType("application/json")
                  // as the function's entry point hands the event to Quarkus (ApiEntryPoint)
                  .body(ApiEntryPoint.withUriPath(JSON.writeValueAsBytes(event)))
                  .post("/_lambda_")
                  .then()
                  .statusCode(200)
                  .extract()
                  .asString());
      Map<String, String> answerHeaders = new java.util.HashMap<>();
      response
          .path("headers")
          .properties()
          .forEach(
              h ->
                  answerHeaders.put(
                      h.getKey().toLowerCase(java.util.Locale.ROOT), h.getValue().asText()));
      response
          .path("multiValueHeaders")
          .properties()
          .forEach(
              h ->
                  answerHeaders.putIfAbsent(
                      h.getKey().toLowerCase(java.util.Locale.ROOT),
                      h.getValue().path(0).asText()));
      String body = response.path("body").asText("");
      return new Answer(
          response.path("statusCode").asInt(),
          answerHeaders,
          body.startsWith("{") ? JSON.readTree(body) : JSON.getNodeFactory().textNode(body));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** {@link #get(String, String, Map)} without extra headers. */
  static Answer get(String routeKey, String rawPath) {
    return get(routeKey, rawPath, Map.of());
  }
}
