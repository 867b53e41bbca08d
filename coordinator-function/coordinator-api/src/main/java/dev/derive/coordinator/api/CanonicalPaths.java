package dev.derive.coordinator.api;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.Response;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

/**
 * Answers a route other than the image URLs only on its canonical spelling: no percent-encoded
 * octet and no dot segment ({@code .} or {@code ..}, RFC 3986 section 3.3) in the path as sent.
 *
 * <p>The image route ({@code GET /v1/{signature}/{proxy+}}) is the one route API Gateway lets
 * through without IAM or JWT; its signature is what authorises it. API Gateway chooses a route on
 * the path as sent, so {@code /v1/%64erivatives/<id>} or {@code /v1/x/../derivatives/<id>} would
 * reach this function through the image route, and the framework, decoding and normalising, would
 * hand them to the job API. No path of the other routes needs an encoded octet (ids are hex, the
 * rest are literals), so refusing such spellings closes that way round authorisation at no cost;
 * they are answered 404 as the unknown paths they are.
 */
public class CanonicalPaths {
  private static final Pattern DOT_SEGMENT = Pattern.compile("(^|/)\\.{1,2}(/|$)");

  /** Refuses a non-canonical path to any resource but {@link ImageUrlResource}. */
  @ServerRequestFilter
  public Response refuseNonCanonical(HttpServerRequest request, SimpleResourceInfo resource) {
    if (resource.getResourceClass() == ImageUrlResource.class) {
      return null;
    }
    String raw = request.path(); // as sent: neither decoded nor normalised
    if (raw != null && (raw.indexOf('%') >= 0 || DOT_SEGMENT.matcher(raw).find())) {
      // the same answer as any unknown path (ProblemMappers#notFound)
      return Problems.of("not-found", "Not found", 404, "no such resource");
    }
    return null;
  }
}
