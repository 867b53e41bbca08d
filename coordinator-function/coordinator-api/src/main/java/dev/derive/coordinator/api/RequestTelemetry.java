package dev.derive.coordinator.api;

import com.amazonaws.services.lambda.runtime.Context;
import dev.derive.coordinator.trace.ClientTraceId;
import dev.derive.protocol.telemetry.Correlation;
import dev.derive.protocol.telemetry.EmbeddedMetrics;
import dev.derive.protocol.telemetry.Metric;
import dev.derive.protocol.telemetry.XRayTraceHeader;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * The API's part of Derive's telemetry. Before a request: the Lambda request id, the cold start and
 * the client's trace id ({@link ClientTraceId}: {@code X-Request-Id}, {@code traceparent} or {@code
 * X-Amzn-Trace-Id}) go into the log context of the request, so every line it writes carries them
 * and the job it starts carries the trace id on to the workers. After it: one {@code request} log
 * line (method, route kind, status; never the URL's query, which for presigned URLs holds a
 * signature) and, for a problem answer, the {@link Metric#REJECTED_REQUESTS} metric by problem type
 * (and {@link Metric#REQUESTS} with outcome {@code rejected} for a derivative request: the other
 * outcomes are counted where they are decided, in the coordinator core).
 */
public class RequestTelemetry {
  private static final System.Logger LOG = System.getLogger(RequestTelemetry.class.getName());

  /** The request property holding the request's trace id. */
  static final String TRACE_ID_PROPERTY = "derive.traceId";

  private final EmbeddedMetrics metrics = EmbeddedMetrics.standardOutput();

  @Inject Provider<Context> lambdaContext;

  /** Sets the request's log context. */
  @ServerRequestFilter(preMatching = true)
  public void correlate(ContainerRequestContext request) {
    Correlation.invocation(requestId());
    String traceId =
        ClientTraceId.of(
            request.getHeaderString(ClientTraceId.REQUEST_ID),
            request.getHeaderString(ClientTraceId.TRACEPARENT),
            request.getHeaderString(ClientTraceId.AMZN_TRACE_ID));
    request.setProperty(TRACE_ID_PROPERTY, traceId);
    Correlation.put(Correlation.TRACE_ID, traceId);
    Correlation.put(Correlation.XRAY_TRACE, XRayTraceHeader.current());
  }

  /** Logs the answer and counts a rejection. */
  @ServerResponseFilter
  public void answered(ContainerRequestContext request, ContainerResponseContext response) {
    String method = request.getMethod();
    String kind = kind(method, request.getUriInfo().getPath());
    int status = response.getStatus();
    MediaType type = response.getMediaType();
    boolean problem =
        type != null && Problems.MEDIA_TYPE.equals(type.getType() + "/" + type.getSubtype());
    String problemType = problem ? problemType(response.getEntity()) : null;
    LOG.log(
        System.Logger.Level.INFO,
        () ->
            "request %s %s answered %d%s"
                .formatted(method, kind, status, problem ? " " + problemType : ""));
    if (problem && status >= 400) {
      EmbeddedMetrics.Event event =
          EmbeddedMetrics.event()
              .value(Metric.REJECTED_REQUESTS, 1)
              .dimension(Metric.Dimension.ERROR_TYPE, problemType);
      if (DERIVATIVE.equals(kind) || IMAGE_URL.equals(kind)) {
        event.value(Metric.REQUESTS, 1).dimension(Metric.Dimension.OUTCOME, "rejected");
      }
      metrics.write(event.property("status", status));
    }
  }

  /** The current request's trace id (set before matching), or a new one outside a request. */
  static String traceId() {
    String traceId = Correlation.get(Correlation.TRACE_ID);
    return traceId != null ? traceId : ClientTraceId.of(null, null, null);
  }

  private static final String DERIVATIVE = "derivative";
  private static final String IMAGE_URL = "image-url";

  /**
   * What a request is, for its log line: {@code derivative} (POST /v1/derivatives), {@code
   * image-url} (GET /v1/{signature}/…), else the first path segment after /v1 (uploads, …).
   */
  static String kind(String method, String path) {
    String p = path == null ? "" : path;
    if (!p.startsWith("/v1/")) {
      return "other";
    }
    String first = p.substring(4).split("/", 2)[0];
    return switch (first) {
      case "derivatives" ->
          "POST".equals(method) && p.equals("/v1/derivatives") ? DERIVATIVE : "job";
      case "uploads", "capabilities", "presets" -> first;
      default -> p.indexOf('/', 4) > 0 ? IMAGE_URL : "other";
    };
  }

  private String requestId() {
    try {
      Context context = lambdaContext.get();
      return context == null ? null : context.getAwsRequestId();
    } catch (RuntimeException notInALambdaInvocation) {
      return null;
    }
  }

  private static String problemType(Object entity) {
    if (entity instanceof Problem p && p.type() != null) {
      String uri = p.type();
      return uri.startsWith(Problems.TYPE_BASE) ? uri.substring(Problems.TYPE_BASE.length()) : uri;
    }
    return "unknown";
  }
}
