package dev.derive.coordinator.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.vertx.http.runtime.QuarkusHttpHeaders;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

/**
 * The routes of {@code template.yaml}'s HTTP API, by the route key API Gateway puts in each event
 * ({@code requestContext.routeKey}), and what each may reach. API Gateway authorises a request by
 * its route, chosen on the path; this function then routes it again on the path, decoding and
 * normalising it ({@code ;x} matrix parameters dropped, {@code %2e%2e} and dot segments resolved),
 * so the same path could mean another resource here than there: {@code /v1/derivatives;x/<id>} came
 * through the anonymous image route and was answered by the job API. So the function trusts the
 * route key, not the path:
 *
 * <ul>
 *   <li>a request of the image route ({@value #IMAGE_URLS}, no authorizer: the URL's signature is
 *       its authorisation) is only ever an image URL: before any route of this function is looked
 *       at, it is rerouted to {@link ImageUrlResource}, which reads the path API Gateway received
 *       from the event, whatever its spelling;
 *   <li>every other resource answers only on its own authorised routes ({@link #ROUTES}): the job
 *       API on {@value #DERIVATIVES} and {@value #DEFAULT}, the rest on {@value #DEFAULT}; on any
 *       other route it is an unknown path (404);
 *   <li>a route key this function does not know (a route added to the template without it) reaches
 *       nothing: 404.
 * </ul>
 *
 * <p>An event without a route key did not come from API Gateway but from a caller allowed to invoke
 * the function itself ({@code lambda:InvokeFunction}, IAM-authorised; the tests' mock server): it
 * reaches every resource, as through {@value #DEFAULT}.
 */
@Singleton
public class ApiRoutes {
  /** The anonymous image URL route (template.yaml's {@code ImageUrlRoute}). */
  public static final String IMAGE_URLS = "GET /v1/{signature}/{proxy+}";

  /** The job API's route beside {@code $default} ({@code DerivativesRoute}), IAM or JWT. */
  public static final String DERIVATIVES = "ANY /v1/derivatives/{proxy+}";

  /** Every other path ({@code CoordinatorApiRoute}), IAM or JWT. */
  public static final String DEFAULT = "$default";

  /** The routes each resource may be reached through; a resource not named: {@value #DEFAULT}. */
  static final Map<Class<?>, Set<String>> ROUTES =
      Map.of(
          ImageUrlResource.class, Set.of(IMAGE_URLS, DERIVATIVES, DEFAULT),
          DerivativesResource.class, Set.of(DERIVATIVES, DEFAULT));

  /** Runs before every route of the function, JAX-RS or not ({@code /q/openapi}). */
  static final int FILTER_PRIORITY = 1_000_000;

  private static final System.Logger LOG = System.getLogger(ApiRoutes.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> KNOWN = Set.of(IMAGE_URLS, DERIVATIVES, DEFAULT);
  private static final String DISPATCHED = ApiRoutes.class.getName() + ".dispatched";

  /** The request's route key, or empty when it did not come through API Gateway. */
  static Optional<String> routeKey(HttpServerRequest request) {
    return event(request)
        .map(APIGatewayV2HTTPEvent::getRequestContext)
        .map(APIGatewayV2HTTPEvent.RequestContext::getRouteKey);
  }

  /** The API Gateway event the request was made from, if it was made from one. */
  static Optional<APIGatewayV2HTTPEvent> event(HttpServerRequest request) {
    return request.headers() instanceof QuarkusHttpHeaders headers
        ? Optional.ofNullable(headers.getContextObject(APIGatewayV2HTTPEvent.class))
        : Optional.empty();
  }

  void register(@Observes Filters filters) {
    filters.register(this::dispatch, FILTER_PRIORITY);
  }

  /** Sends an image route request to the image URL resource, and refuses unknown route keys. */
  private void dispatch(RoutingContext context) {
    Optional<String> key = routeKey(context.request());
    if (key.isEmpty() || context.get(DISPATCHED) != null) {
      context.next();
    } else if (key.get().equals(IMAGE_URLS)) {
      context.put(DISPATCHED, true);
      context.reroute(ImageUrlResource.DISPATCH_PATH);
    } else if (KNOWN.contains(key.get())) {
      context.next();
    } else {
      LOG.log(
          System.Logger.Level.WARNING,
          () -> "route key %s is none of the coordinator's: answered 404".formatted(key.get()));
      context
          .response()
          .setStatusCode(404)
          .putHeader("Content-Type", Problems.MEDIA_TYPE)
          .end(notFoundBody());
    }
  }

  /** Refuses a resource reached through a route that is not one of its own: 404. */
  @ServerRequestFilter
  public Response refuseOtherRoutes(HttpServerRequest request, SimpleResourceInfo resource) {
    Optional<String> key = routeKey(request);
    if (key.isEmpty()) {
      return null;
    }
    Set<String> own = ROUTES.getOrDefault(resource.getResourceClass(), Set.of(DEFAULT));
    return own.contains(key.get()) ? null : Problems.notFound();
  }

  /** {@link Problems#notFound}'s body, for an answer made before any resource is chosen. */
  private static String notFoundBody() {
    try {
      return JSON.writeValueAsString(
          new Problem(
              Problems.typeOf("not-found"),
              "Not found",
              404,
              "no such resource",
              List.of(),
              List.of()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
