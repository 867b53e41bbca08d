package dev.derive.infra.local.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.local.lambda.InvocationResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Turns a function's result into the HTTP response, as API Gateway does for payload format 2.0: an
 * object with {@code statusCode} gives the status, {@code headers}, {@code multiValueHeaders},
 * {@code cookies} (one {@code Set-Cookie} each) and {@code body} (decoded if {@code
 * isBase64Encoded}); any other valid JSON is sent as a 200 {@code application/json} body. A
 * function error gives {@code 500 {"message":"Internal Server Error"}}, a timeout {@code 503
 * {"message":"Service Unavailable"}}.
 */
public final class HttpResponseMapper {
  private static final ObjectMapper JSON = new ObjectMapper();

  private HttpResponseMapper() {}

  /** The response for {@code result}. */
  public static HttpResponse response(InvocationResult result) {
    return switch (result) {
      case InvocationResult.Failure failure ->
          failure.errorType().equals("Sandbox.Timedout")
              ? HttpResponse.message(503, "Service Unavailable")
              : HttpResponse.message(500, "Internal Server Error");
      case InvocationResult.Success success -> fromPayload(success.payload());
    };
  }

  private static HttpResponse fromPayload(byte[] payload) {
    JsonNode document;
    try {
      document = JSON.readTree(payload);
    } catch (IOException notJson) {
      return HttpResponse.message(500, "Internal Server Error");
    }
    if (document == null || !document.isObject() || !document.has("statusCode")) {
      return new HttpResponse(200, List.of(Map.entry("Content-Type", "application/json")), payload);
    }
    int status = document.path("statusCode").asInt(0);
    if (status < 100 || status > 599) {
      return HttpResponse.message(500, "Internal Server Error");
    }
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    document
        .path("headers")
        .properties()
        .forEach(h -> headers.add(Map.entry(h.getKey(), h.getValue().asText())));
    document
        .path("multiValueHeaders")
        .properties()
        .forEach(h -> h.getValue().forEach(v -> headers.add(Map.entry(h.getKey(), v.asText()))));
    document.path("cookies").forEach(c -> headers.add(Map.entry("Set-Cookie", c.asText())));
    byte[] body = new byte[0];
    JsonNode bodyNode = document.get("body");
    if (bodyNode != null && !bodyNode.isNull()) {
      String text = bodyNode.isTextual() ? bodyNode.asText() : bodyNode.toString();
      if (document.path("isBase64Encoded").asBoolean(false)) {
        try {
          body = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException invalid) {
          return HttpResponse.message(500, "Internal Server Error");
        }
      } else {
        body = text.getBytes(StandardCharsets.UTF_8);
      }
    }
    return new HttpResponse(status, headers, body);
  }
}
