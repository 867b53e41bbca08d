package dev.derive.coordinator.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.derive.coordinator.CoordinatorException;
import dev.derive.coordinator.claim.JobStoreException;
import dev.derive.coordinator.validate.ControlCharacters;
import dev.derive.coordinator.validate.Violation;
import dev.derive.storage.ObjectStoreException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Maps every failure of a request to an RFC 9457 problem response. */
public class ProblemMappers {
  private static final System.Logger LOG = System.getLogger(ProblemMappers.class.getName());

  /** Domain errors: invalid request, missing source, unsupported media type, ... */
  @ServerExceptionMapper
  public Response coordinator(CoordinatorException e) {
    return Problems.of(e);
  }

  /**
   * A body that is not JSON at all, or has more after its value: 400 invalid-request at the whole
   * body, saying why in Derive's words ({@link JsonSyntax}); a member named twice in one object
   * ({@link StrictJson}): 400 at that member.
   */
  @ServerExceptionMapper
  public Response malformedJson(JsonProcessingException e) {
    String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    if (message.startsWith("Duplicate field") && e.getProcessor() instanceof JsonParser parser) {
      JsonStreamContext member = parser.getParsingContext();
      String name = member == null ? null : member.getCurrentName();
      if (name != null) {
        boolean echoable = !ControlCharacters.anyIn(name);
        String pointer = (echoable ? member : member.getParent()).pathAsPointer().toString();
        return Problems.invalidRequest(
            List.of(
                new Violation(
                    pointer,
                    (echoable ? "member '" + name + "'" : "a member")
                        + " appears twice in one object; member names must be unique (RFC 7493"
                        + " section 2.3)")));
      }
    }
    if (message.startsWith("Trailing token")) {
      return Problems.invalidRequest(
          List.of(
              new Violation(
                  "",
                  "malformed JSON: there is more after the end of the body's JSON value; a JSON"
                      + " text is one value (RFC 8259 section 2)")));
    }
    return Problems.invalidRequest(
        List.of(new Violation("", "malformed JSON: " + JsonSyntax.sentence(e))));
  }

  /**
   * As {@link #malformedJson}: Quarkus REST has a mapper of its own for this subtype (a 400 with no
   * body), which would win over the mapper of its supertype. Jackson raises it for content after
   * the body's value that starts another value ({@code {...}{...}}) and for an empty body.
   */
  @ServerExceptionMapper
  public Response mismatchedInput(MismatchedInputException e) {
    return malformedJson(e);
  }

  /** An unknown path: 404 not-found. */
  @ServerExceptionMapper
  public Response notFound(NotFoundException e) {
    return Problems.notFound();
  }

  /** A method the resource does not offer: 405 method-not-allowed, with {@code Allow}. */
  @ServerExceptionMapper
  public Response notAllowed(NotAllowedException e, UriInfo uri) {
    Set<String> methods = AllowedMethods.on(uri.getPath());
    String allow = methods.isEmpty() ? null : String.join(", ", methods);
    return Problems.of(
        "method-not-allowed",
        "Method not allowed",
        405,
        "this resource allows " + (allow == null ? "other methods" : allow),
        allow == null ? Map.of() : Map.of(HttpHeaders.ALLOW, allow));
  }

  /** A body that is not {@code application/json}: 415 unsupported-request-media-type. */
  @ServerExceptionMapper
  public Response notSupported(NotSupportedException e) {
    return Problems.of(
        "unsupported-request-media-type",
        "Unsupported request media type",
        415,
        "request bodies must be application/json");
  }

  /** A body over the configured cap. */
  @ServerExceptionMapper
  public Response tooLarge(RequestBodyTooLargeException e) {
    return Problems.of(
        RequestBodyTooLargeException.KIND, "Request body too large", 413, e.getMessage());
  }

  /** Other HTTP-level errors, keeping their status. */
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

  /** The jobs table did not answer (in time): 503 with Retry-After. */
  @ServerExceptionMapper
  public Response jobStore(JobStoreException e) {
    LOG.log(System.Logger.Level.WARNING, "jobs table unavailable", e);
    return Problems.unavailable(
        "service-unavailable", "the jobs table did not answer in time; retry shortly");
  }

  /** A job already calls back as many receivers as it may: 503 with Retry-After. */
  @ServerExceptionMapper
  public Response tooManyCallbacks(dev.derive.coordinator.completion.TooManyCallbacksException e) {
    return Problems.unavailable("too-many-callbacks", e.getMessage());
  }

  /** The callback queue did not take a callback: 503 with Retry-After. */
  @ServerExceptionMapper
  public Response callbackQueue(dev.derive.coordinator.completion.CompletionPublishException e) {
    LOG.log(System.Logger.Level.WARNING, "callback queue unavailable", e);
    return Problems.unavailable(
        "service-unavailable", "the callback could not be registered in time; retry shortly");
  }

  /** S3 did not answer (in time): 503 with Retry-After. */
  @ServerExceptionMapper
  public Response objectStore(ObjectStoreException e) {
    LOG.log(System.Logger.Level.WARNING, "object store unavailable", e);
    return Problems.unavailable(
        "service-unavailable", "the object store did not answer in time; retry shortly");
  }

  /** Anything unexpected: 500, details only in the log. */
  @ServerExceptionMapper
  public Response unexpected(RuntimeException e) {
    LOG.log(System.Logger.Level.ERROR, "request failed", e);
    return Problems.of("internal", "Internal error", 500, "the request could not be completed");
  }
}
