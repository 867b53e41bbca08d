package dev.derive.infra.local.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.local.lambda.FunctionPool;
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
 * isBase64Encoded}); any other valid JSON is sent as a 200 {@code application/json} body.
 *
 * <p>Failures as API Gateway answers them: a function error (a timed-out invocation included, which
 * Lambda reports as an error) {@code 500 {"message":"Internal Server Error"}}; a response over
 * Lambda's 6 MB limit {@code 502 {"message":"Internal Server Error"}}; an event over Lambda's 6 MB
 * request limit {@code 413 {"message":"Request Entity Too Large"}}. The integration timeout (503)
 * is the server's ({@link HttpApiServer}).
 */
public final class HttpResponseMapper {
  /** The error type Lambda reports for a response over its 6 MB limit. */
  public static final String RESPONSE_TOO_LARGE = "Function.ResponseSizeTooLarge";

  private static final ObjectMapper JSON = new ObjectMapper();

  private HttpResponseMapper() {}

  /** The response for {@code result}. */
  public static HttpResponse response(InvocationResult result) {
    return switch (result) {
      case InvocationResult.Failure failure ->
          switch (failure.errorType()) {
            case FunctionPool.REQUEST_TOO_LARGE ->
                HttpResponse.message(413, "Request Entity Too Large");
            case RESPONSE_TOO_LARGE -> HttpResponse.message(502, "Internal Server Error");
            default -> HttpResponse.message(500, "Internal Server Error");
          };
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
