package dev.derive.infra.local.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One HTTP API route: a method (or {@code ANY}) and a path template with {@code {name}} segments
 * and an optional trailing greedy {@code {name+}} segment, or the {@code $default} route that
 * catches everything else. See
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-routes.html.
 *
 * @param method an upper-case HTTP method or {@code ANY}; {@code null} for {@code $default}
 * @param path the path template; {@code null} for {@code $default}
 * @param target the logical id of the function integrated with this route
 */
public record Route(String method, String path, String target) {

  /** The route key, e.g. {@code GET /v1/derivatives/{id}} or {@code $default}. */
  public String routeKey() {
    return path == null ? "$default" : method + " " + path;
  }

  /** Whether this is the {@code $default} route. */
  public boolean isDefault() {
    return path == null;
  }

  /** Whether the path ends with a greedy {@code {name+}} segment. */
  public boolean isGreedy() {
    return path != null && path.endsWith("+}");
  }

  /** How many segments of the path are literal text (more is more specific). */
  public int literalSegments() {
    return path == null ? 0 : (int) segments(path).stream().filter(s -> !s.startsWith("{")).count();
  }

  /**
   * The path parameters if {@code requestMethod} and {@code requestPath} match this route (empty
   * map for a match without parameters), otherwise empty. {@code requestPath} is the path as API
   * Gateway routes it, percent-decoded already ({@link RouteTable#find}).
   */
  public Optional<Map<String, String>> match(String requestMethod, String requestPath) {
    if (isDefault()) {
      return Optional.of(Map.of());
    }
    if (!method.equals("ANY") && !method.equals(requestMethod.toUpperCase(Locale.ROOT))) {
      return Optional.empty();
    }
    List<String> template = segments(path);
    List<String> actual = segments(requestPath);
    Map<String, String> parameters = new LinkedHashMap<>();
    for (int i = 0; i < template.size(); i++) {
      String segment = template.get(i);
      if (segment.startsWith("{") && segment.endsWith("+}")) {
        if (i >= actual.size()) {
          return Optional.empty();
        }
        String rest = String.join("/", actual.subList(i, actual.size()));
        parameters.put(segment.substring(1, segment.length() - 2), rest);
        return Optional.of(parameters);
      }
      if (i >= actual.size()) {
        return Optional.empty();
      }
      if (segment.startsWith("{") && segment.endsWith("}")) {
        parameters.put(segment.substring(1, segment.length() - 1), actual.get(i));
      } else if (!segment.equals(actual.get(i))) {
        return Optional.empty();
      }
    }
    return template.size() == actual.size() ? Optional.of(parameters) : Optional.empty();
  }

  private static List<String> segments(String path) {
    List<String> segments = new ArrayList<>();
    for (String part : path.split("/", -1)) {
      if (!part.isEmpty()) {
        segments.add(part);
      }
    }
    return segments;
  }
}
