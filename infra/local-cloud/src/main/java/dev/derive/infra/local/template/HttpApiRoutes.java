package dev.derive.infra.local.template;

import java.util.ArrayList;
import java.util.List;

/**
 * The API Gateway v2 routes of a template that invoke a function: {@code AWS::ApiGatewayV2::Route}
 * resources whose {@code Target} names an {@code AWS::ApiGatewayV2::Integration} whose {@code
 * IntegrationUri} refers to the function (directly or through {@code Function.Alias}).
 */
final class HttpApiRoutes {
  /** An API Gateway v2 route. */
  static final String ROUTE_TYPE = "AWS::ApiGatewayV2::Route";

  /** An API Gateway v2 integration (a route's target). */
  static final String INTEGRATION_TYPE = "AWS::ApiGatewayV2::Integration";

  private HttpApiRoutes() {}

  /** The active API Gateway v2 routes whose integration invokes {@code functionId}. */
  static List<FunctionDefinition.HttpApiEvent> to(
      Template template, String functionId, References references) {
    List<FunctionDefinition.HttpApiEvent> routes = new ArrayList<>();
    for (Template.Resource route : template.resourcesOfType(ROUTE_TYPE)) {
      if (!route.isActive(references)) {
        continue;
      }
      boolean invokesFunction =
          referencedIds(route.properties().get("Target")).stream()
              .map(template.resources()::get)
              .filter(r -> r != null && r.type().equals(INTEGRATION_TYPE))
              .anyMatch(
                  integration ->
                      referencedIds(integration.properties().get("IntegrationUri"))
                          .contains(functionId));
      if (!invokesFunction) {
        continue;
      }
      String routeKey =
          String.valueOf(IntrinsicResolver.resolve(route.properties().get("RouteKey"), references));
      if (routeKey.equals("$default")) {
        routes.add(new FunctionDefinition.HttpApiEvent(route.logicalId(), null, null));
        continue;
      }
      int space = routeKey.indexOf(' ');
      if (space <= 0) {
        throw new TemplateException(
            route.logicalId() + ".RouteKey must be \"METHOD /path\" or $default: " + routeKey);
      }
      routes.add(
          new FunctionDefinition.HttpApiEvent(
              route.logicalId(),
              routeKey.substring(0, space).toUpperCase(java.util.Locale.ROOT),
              routeKey.substring(space + 1).trim()));
    }
    return routes;
  }

  /** Logical ids {@code value} refers to; {@code Function.Alias} counts as {@code Function}. */
  private static List<String> referencedIds(Object value) {
    return IntrinsicResolver.referencedNames(value).stream()
        .map(name -> name.contains(".") ? name.substring(0, name.indexOf('.')) : name)
        .toList();
  }
}
