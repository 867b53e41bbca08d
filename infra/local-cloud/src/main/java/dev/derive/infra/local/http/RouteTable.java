package dev.derive.infra.local.http;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses the route for a request as API Gateway HTTP APIs do: the most specific match wins, i.e.
 * routes without a greedy segment before greedy ones, more literal segments before fewer, a named
 * method before {@code ANY}, and {@code $default} last.
 */
public final class RouteTable {
  private static final Comparator<Route> SPECIFICITY =
      Comparator.comparing(Route::isDefault)
          .thenComparing(Route::isGreedy)
          .thenComparing(Comparator.comparingInt(Route::literalSegments).reversed())
          .thenComparing(r -> "ANY".equals(r.method()));

  private final List<Route> routes;

  /** A table of {@code routes}. */
  public RouteTable(List<Route> routes) {
    this.routes = routes.stream().sorted(SPECIFICITY).toList();
  }

  /** A matched route and its decoded path parameters. */
  public record Match(Route route, Map<String, String> pathParameters) {}

  /**
   * The route for {@code method} and {@code path}, if any. {@code path} is percent-decoded, as API
   * Gateway decodes a path before it routes it and before it hands it over ({@link
   * HttpEventMapper}): {@code /a%2Fb} is {@code /a/b}.
   */
  public Optional<Match> find(String method, String path) {
    for (Route route : routes) {
      Optional<Map<String, String>> parameters = route.match(method, path);
      if (parameters.isPresent()) {
        return Optional.of(new Match(route, parameters.get()));
      }
    }
    return Optional.empty();
  }

  /** The routes, most specific first. */
  public List<Route> routes() {
    return routes;
  }
}
