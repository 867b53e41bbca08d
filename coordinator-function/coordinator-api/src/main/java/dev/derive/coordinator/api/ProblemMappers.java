package dev.derive.coordinator.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.derive.coordinator.CoordinatorException;
import dev.derive.coordinator.validate.Violation;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Maps every failure of a request to an RFC 9457 problem response. */
public class ProblemMappers {
  private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

  /** Domain errors: invalid request, missing source, unsupported media type, ... */
  @ServerExceptionMapper
  public Response coordinator(CoordinatorException e) {
    return Problems.of(e);
  }

  /** A body that is not JSON at all: 400 invalid-request at the whole body. */
  @ServerExceptionMapper
  public Response malformedJson(JsonProcessingException e) {
    return Problems.invalidRequest(
        List.of(new Violation("", "malformed JSON: " + e.getOriginalMessage())));
  }

  /** An unknown path: 404 not-found. */
  @ServerExceptionMapper
  public Response notFound(NotFoundException e) {
    return Problems.of("not-found", "Not found", 404, "no such resource");
  }

  /** Other HTTP-level errors (wrong method, media type ...), keeping their status. */
  @ServerExceptionMapper
  public Response http(WebApplicationException e) {
    int status = e.getResponse().getStatus();
    if (status == 400 && e.getCause() instanceof JsonProcessingException json) {
      return malformedJson(json);
    }
    return Problems.of(
        "http-" + status,
        e.getResponse().getStatusInfo().getReasonPhrase(),
        status,
        e.getMessage());
  }

  /** Anything unexpected, AWS failures included: 500, details only in the log. */
  @ServerExceptionMapper
  public Response unexpected(RuntimeException e) {
    LOG.error("request failed", e);
    return Problems.of("internal", "Internal error", 500, "the request could not be completed");
  }
}
