package dev.derive.infra.local.http;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * An HTTP response to send.
 *
 * @param headers header fields in order; a name may repeat (e.g. {@code Set-Cookie})
 */
public record HttpResponse(int status, List<Map.Entry<String, String>> headers, byte[] body) {

  /** An API Gateway-style JSON error, e.g. {@code 404 {"message":"Not Found"}}. */
  public static HttpResponse message(int status, String message) {
    return new HttpResponse(
        status,
        List.of(Map.entry("Content-Type", "application/json")),
        ("{\"message\":\"" + message + "\"}").getBytes(StandardCharsets.UTF_8));
  }
}
