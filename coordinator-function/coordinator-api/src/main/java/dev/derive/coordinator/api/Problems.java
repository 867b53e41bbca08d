package dev.derive.coordinator.api;

import dev.derive.coordinator.CoordinatorException;
import dev.derive.coordinator.dispatch.DispatchFailedException;
import dev.derive.coordinator.identity.PasswordProtectedSourceException;
import dev.derive.coordinator.identity.SourceNotFoundException;
import dev.derive.coordinator.identity.SourceTooLargeException;
import dev.derive.coordinator.identity.UnsupportedMediaTypeException;
import dev.derive.coordinator.job.DerivativeNotReadyException;
import dev.derive.coordinator.job.JobFailedException;
import dev.derive.coordinator.job.JobNotFoundException;
import dev.derive.coordinator.lifecycle.StepInProgressException;
import dev.derive.coordinator.plan.NoConversionException;
import dev.derive.coordinator.url.ForbiddenUrlException;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.Violation;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/**
 * Turns the coordinator's error kinds into RFC 9457 problem responses. The problem {@code type} is
 * {@code https://derive.dev/problems/<kind>}; kinds are never renamed.
 */
public final class Problems {
  /** Base of every problem type URI. */
  public static final String TYPE_BASE = "https://derive.dev/problems/";

  /** The media type of problem responses (RFC 9457 section 3). */
  public static final String MEDIA_TYPE = "application/problem+json";

  private record Kind(int status, String title) {}

  /**
   * The status of each domain exception, by its class: every concrete {@link CoordinatorException}
   * has one ({@code ProblemTypesTest} holds it), so a new exception is given its problem here or
   * the build fails, rather than becoming a 500.
   */
  private static final Map<Class<? extends CoordinatorException>, Integer> STATUS =
      Map.ofEntries(
          Map.entry(InvalidRequestException.class, 400),
          Map.entry(SourceNotFoundException.class, 404),
          Map.entry(SourceTooLargeException.class, 413),
          Map.entry(UnsupportedMediaTypeException.class, 415),
          Map.entry(NoConversionException.class, 422),
          Map.entry(JobNotFoundException.class, 404),
          Map.entry(DispatchFailedException.class, 503),
          Map.entry(DerivativeNotReadyException.class, 409),
          // as an encrypted PDF's failed job answers: the same type, 422
          Map.entry(PasswordProtectedSourceException.class, 422),
          Map.entry(ForbiddenUrlException.class, 403),
          // its own error's type; 503 with Retry-After while its backoff holds it
          Map.entry(JobFailedException.class, 422),
          // the progress function's redelivery signal; an API request never meets it
          Map.entry(StepInProgressException.class, 503));

  /** The titles of the kinds whose words are not their title. */
  private static final Map<String, String> TITLES =
      Map.ofEntries(
          Map.entry(InvalidRequestException.KIND, "Invalid request"),
          Map.entry(SourceNotFoundException.KIND, "Source not found"),
          Map.entry(SourceTooLargeException.KIND, "Source too large"),
          Map.entry(UnsupportedMediaTypeException.KIND, "Unsupported media type"),
          Map.entry(NoConversionException.KIND, "No conversion"),
          Map.entry(JobNotFoundException.KIND, "Not found"),
          Map.entry(DispatchFailedException.KIND, "Dispatch failed"),
          Map.entry(DerivativeNotReadyException.KIND, "Derivative not ready"),
          Map.entry(PasswordProtectedSourceException.KIND, "Password required"),
          Map.entry(ForbiddenUrlException.INVALID_SIGNATURE, "Invalid signature"),
          Map.entry(ForbiddenUrlException.EXPIRED, "Expired URL"),
          Map.entry(ForbiddenUrlException.PRESET_CHANGED, "Preset changed"));

  /** The domain exceptions that have a problem status (for the test that every one has). */
  static java.util.Set<Class<? extends CoordinatorException>> mapped() {
    return STATUS.keySet();
  }

  /** The status of {@code e}'s problem: its class's, or its nearest mapped superclass's. */
  private static int statusOf(CoordinatorException e) {
    for (Class<?> type = e.getClass(); type != null; type = type.getSuperclass()) {
      Integer status = STATUS.get(type);
      if (status != null) {
        return status;
      }
    }
    return 500;
  }

  private Problems() {}

  /** The problem type URI of error kind {@code kind}. */
  public static String typeOf(String kind) {
    return TYPE_BASE + kind;
  }

  /** Seconds a client should wait before retrying after a 503 (RFC 9110 section 10.2.3). */
  public static final int RETRY_AFTER_SECONDS = 5;

  /** Seconds a client should wait before asking again for content whose job is not done. */
  public static final int NOT_READY_RETRY_AFTER_SECONDS = 2;

  /**
   * The title of problem type {@code kind}: one per type, however it is reached (a step's error
   * type answered for its failed job has the title the same type has elsewhere): the table's, else
   * the kind's words ({@code corrupt-input}: "Corrupt input").
   */
  static String title(String kind) {
    String known = TITLES.get(kind);
    if (known != null) {
      return known;
    }
    String words = kind.replace('-', ' ');
    return words.isEmpty() ? "Error" : Character.toUpperCase(words.charAt(0)) + words.substring(1);
  }

  /** The response for a domain exception. */
  public static Response of(CoordinatorException e) {
    if (e instanceof JobFailedException failed && failed.retryAfter().isPresent()) {
      // a retryable failure held by its backoff (docs/job-lifecycle.md): ask again after it
      long seconds =
          Math.max(
              1,
              java.time.Duration.between(java.time.Instant.now(), failed.retryAfter().get())
                  .toSeconds());
      return of(
          e.kind(),
          "Derivative failed",
          503,
          e.getMessage(),
          Map.of("Retry-After", Long.toString(seconds)));
    }
    if (e instanceof JobFailedException failed) {
      return response(jobProblem(e, 422, failed.jobId()));
    }
    if (e instanceof DerivativeNotReadyException notReady) {
      return Response.fromResponse(response(jobProblem(e, 409, notReady.jobId())))
          .header("Retry-After", Integer.toString(NOT_READY_RETRY_AFTER_SECONDS))
          .build();
    }
    if (e instanceof DispatchFailedException) {
      return unavailable(DispatchFailedException.KIND, e.getMessage());
    }
    int status = statusOf(e);
    Kind kind = new Kind(status, status == 500 ? "Internal error" : title(e.kind()));
    List<Violation> errors =
        switch (e) {
          case InvalidRequestException invalid -> invalid.violations();
          case SourceNotFoundException missing ->
              List.of(new Violation(missing.pointer(), "no such object in the source bucket"));
          default -> List.of();
        };
    List<String> reachable = e instanceof NoConversionException none ? none.reachable() : List.of();
    return response(
        new Problem(
            typeOf(e.kind()), kind.title(), kind.status(), e.getMessage(), errors, reachable));
  }

  /** The problem of job {@code jobId}, with its id member. */
  private static Problem jobProblem(CoordinatorException e, int status, String jobId) {
    return new Problem(
        typeOf(e.kind()), title(e.kind()), status, e.getMessage(), List.of(), List.of(), jobId);
  }

  /** A 400 invalid-request problem for {@code violations}. */
  public static Response invalidRequest(List<Violation> violations) {
    return of(new InvalidRequestException(violations));
  }

  /** The answer to any path no resource has: 404 not-found. */
  public static Response notFound() {
    return of("not-found", "Not found", 404, "no such resource");
  }

  /** A problem response with a kind outside the coordinator core (e.g. {@code internal}). */
  public static Response of(String kind, String title, int status, String detail) {
    return response(new Problem(typeOf(kind), title, status, detail, List.of(), List.of()));
  }

  /** A problem response with a kind outside the coordinator core and extra headers. */
  public static Response of(
      String kind, String title, int status, String detail, Map<String, String> headers) {
    Response.ResponseBuilder builder =
        Response.status(status)
            .type(MEDIA_TYPE)
            .entity(new Problem(typeOf(kind), title, status, detail, List.of(), List.of()));
    headers.forEach(builder::header);
    return builder.build();
  }

  /**
   * A 503 problem with {@code Retry-After}: AWS (the jobs table, a bucket or a queue) did not
   * answer in time; nothing that blocks a retry was left behind.
   */
  public static Response unavailable(String kind, String detail) {
    return of(
        kind,
        "Service unavailable",
        503,
        detail,
        Map.of("Retry-After", Integer.toString(RETRY_AFTER_SECONDS)));
  }

  private static Response response(Problem problem) {
    return Response.status(problem.status()).type(MEDIA_TYPE).entity(problem).build();
  }
}
