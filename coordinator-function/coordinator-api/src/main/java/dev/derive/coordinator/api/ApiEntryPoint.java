package dev.derive.coordinator.api;

import com.amazonaws.services.lambda.runtime.Context;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The API function's Lambda entry point ({@code Handler} in template.yaml): Quarkus's stream
 * handler, given an event whose {@code rawPath} it can make a request of.
 *
 * <p>An HTTP API hands the path over percent-decoded despite the field's name ({@code
 * /capture/space value} for {@code /capture/space%20value}; docs/image-urls.md), and Quarkus's HTTP
 * handler makes the request's URI of it as it is: a space, a brace or a quote made Netty throw
 * ("The URI contain illegal characters", a 500) or Vert.x answer an empty 400 before any resource
 * or problem mapper (the same as quarkus#17341). So {@code rawPath} is percent-encoded again where
 * a URI path cannot hold a character as it is (RFC 3986 section 3.3; {@code %} itself included),
 * and the decoded path API Gateway received stays in {@code requestContext.http.path}, where the
 * image URL resource reads what it verifies (set from {@code rawPath} when an event lacks it).
 *
 * <p>A class of its own rather than a {@code RequestHandler}: Quarkus refuses a custom handler
 * beside its HTTP extension's; this one only rewrites the event and hands it on.
 */
public final class ApiEntryPoint {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HEX = "0123456789ABCDEF";

  private final QuarkusStreamHandler quarkus = new QuarkusStreamHandler();

  /** Handles one invocation: the event with a URI-safe {@code rawPath}, then Quarkus. */
  public void handleRequest(InputStream event, OutputStream response, Context context)
      throws IOException {
    quarkus.handleRequest(
        new ByteArrayInputStream(withUriPath(event.readAllBytes())), response, context);
  }

  /**
   * {@code event} (an API Gateway payload 2.0 event, JSON) with its {@code rawPath} encoded for a
   * URI and the path as received in {@code requestContext.http.path}; any other JSON unchanged.
   */
  static byte[] withUriPath(byte[] event) throws IOException {
    JsonNode tree = JSON.readTree(event);
    if (!(tree instanceof ObjectNode object) || !tree.path("rawPath").isTextual()) {
      return event;
    }
    String received = tree.path("rawPath").textValue();
    String encoded = encodeForUri(received);
    JsonNode http = tree.path("requestContext").path("http");
    boolean hasPath = http.path("path").isTextual();
    if (encoded.equals(received) && hasPath) {
      return event;
    }
    if (!hasPath) {
      ObjectNode context =
          object.get("requestContext") instanceof ObjectNode c
              ? c
              : object.putObject("requestContext");
      ObjectNode httpNode =
          context.get("http") instanceof ObjectNode h ? h : context.putObject("http");
      httpNode.put("path", received);
    }
    object.put("rawPath", encoded);
    return JSON.writeValueAsBytes(object);
  }

  /**
   * {@code path} with every character percent-encoded (as UTF-8) that is not unreserved, a
   * sub-delim, {@code :}, {@code @} or {@code /} (RFC 3986 sections 2 and 3.3): a valid URI path
   * that decodes back to {@code path}.
   */
  static String encodeForUri(String path) {
    StringBuilder out = new StringBuilder(path.length() + 16);
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      boolean keep =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "-._~!$&'()*+,;=:@/".indexOf(c) >= 0;
      if (keep) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 0xF));
      }
    }
    return out.toString();
  }
}
