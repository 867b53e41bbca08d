package dev.derive.infra.local.template;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Reads the {@code AWS::Serverless::Function} resources of a template into {@link
 * FunctionDefinition}s: {@code Globals.Function} is merged into each function (the function's
 * properties win; {@code Environment.Variables} are merged key by key) and the intrinsics of the
 * properties the local cloud uses ({@link #LOCAL_PROPERTIES}) are evaluated; the others (policies,
 * logging, tracing, SnapStart) have no local meaning. Defaults follow SAM: {@code MemorySize} 128
 * MB, {@code Timeout} 3 s, {@code Architectures} x86_64. {@code Layers} must name layer versions of
 * the template ({@link LayerDefinitions}). A container-image function ({@code PackageType: Image})
 * runs the package its Dockerfile is built from ({@link ContainerImageCode}). A function whose
 * {@code Condition} is false is left out.
 *
 * <p>HTTP routes come from the functions' {@code HttpApi} events and from {@code
 * AWS::ApiGatewayV2::Route} resources whose {@code Target} names an {@code
 * AWS::ApiGatewayV2::Integration} whose {@code IntegrationUri} refers to the function (directly or
 * through {@code Function.Alias}).
 */
// Over 300 lines because SAM's Globals merge and route sources are read in one pass.
public final class FunctionDefinitions {
  /** The resource type of a SAM function. */
  public static final String TYPE = "AWS::Serverless::Function";

  /** The function properties the local cloud evaluates and uses. */
  public static final List<String> LOCAL_PROPERTIES =
      List.of(
          "FunctionName",
          "CodeUri",
          "Handler",
          "Runtime",
          "Architectures",
          "Layers",
          "MemorySize",
          "Timeout",
          "Environment",
          "ReservedConcurrentExecutions",
          "Events",
          "PackageType",
          "ImageConfig");

  /** The properties SAM refuses on a container-image function (Globals merged). */
  static final List<String> ZIP_ONLY_PROPERTIES =
      List.of("CodeUri", "Handler", "Runtime", "Layers");

  /** An API Gateway v2 route. */
  public static final String ROUTE_TYPE = HttpApiRoutes.ROUTE_TYPE;

  private FunctionDefinitions() {}

  /**
   * All functions of {@code template}, in template order.
   *
   * @param stackName used for the default function name
   * @throws TemplateException if a property is missing or invalid, or an event type is not
   *     supported (only {@code HttpApi} and {@code SQS} are)
   */
  public static List<FunctionDefinition> read(
      Template template, References references, String stackName) {
    List<FunctionDefinition> functions = new ArrayList<>();
    for (Template.Resource resource : template.resourcesOfType(TYPE)) {
      if (!resource.isActive(references)) {
        continue;
      }
      Map<String, Object> merged = mergeGlobals(template.globalsFunction(), resource.properties());
      merged.keySet().retainAll(LOCAL_PROPERTIES);
      Set<String> given = Set.copyOf(merged.keySet());
      Object layers = merged.remove("Layers");
      Map<String, Object> properties = IntrinsicResolver.resolveMap(merged, references);
      Code code = code(template.directory(), resource, properties, given);
      FunctionDefinition function =
          definition(
              resource.logicalId(),
              properties,
              code,
              stackName,
              LayerDefinitions.ofFunction(template, resource.logicalId(), layers, references));
      List<FunctionDefinition.HttpApiEvent> routes =
          HttpApiRoutes.to(template, resource.logicalId(), references);
      if (!routes.isEmpty()) {
        List<FunctionDefinition.HttpApiEvent> http = new ArrayList<>(function.httpApiEvents());
        http.addAll(routes);
        function =
            new FunctionDefinition(
                function.logicalId(),
                function.functionName(),
                function.code(),
                function.handler(),
                function.runtime(),
                function.architecture(),
                function.layers(),
                function.memorySizeMb(),
                function.timeoutSeconds(),
                function.environment(),
                function.reservedConcurrency(),
                List.copyOf(http),
                function.sqsEvents());
      }
      functions.add(function);
    }
    return functions;
  }

  /** {@code globals} overlaid with {@code own}; {@code Environment.Variables} merged by key. */
  static Map<String, Object> mergeGlobals(Map<String, Object> globals, Map<String, Object> own) {
    Map<String, Object> merged = new LinkedHashMap<>(globals);
    merged.putAll(own);
    Map<String, Object> variables = new LinkedHashMap<>(variables(globals));
    variables.putAll(variables(own));
    if (!variables.isEmpty()) {
      merged.put("Environment", Map.of("Variables", variables));
    }
    return merged;
  }

  private static Map<String, Object> variables(Map<String, Object> properties) {
    Map<String, Object> environment =
        TemplateReader.asMap(properties.get("Environment"), "Environment");
    return TemplateReader.asMap(environment.get("Variables"), "Environment.Variables");
  }

  /**
   * A function's package, handler and runtime (empty for a container image, which brings its own).
   */
  private record Code(Path path, String handler, Optional<String> runtime) {}

  /**
   * The code of a zip function ({@code CodeUri}, {@code Handler}, a Java {@code Runtime}) or of a
   * container-image one ({@link ContainerImageCode}: the package its Dockerfile copies in, the
   * handler of {@code ImageConfig.Command}, else of the image's {@code CMD}).
   */
  private static Code code(
      Path directory,
      Template.Resource resource,
      Map<String, Object> properties,
      Set<String> given) {
    String id = resource.logicalId();
    Object packageType = properties.getOrDefault("PackageType", "Zip");
    if ("Image".equals(packageType)) {
      List<String> refused = ZIP_ONLY_PROPERTIES.stream().filter(given::contains).toList();
      if (!refused.isEmpty()) {
        throw new TemplateException(
            id
                + " is a container image (PackageType Image) but has "
                + String.join(", ", refused)
                + " (Globals merged), which SAM refuses for images");
      }
      ContainerImageCode image = ContainerImageCode.read(directory, resource.metadata(), id);
      Map<String, Object> imageConfig =
          TemplateReader.asMap(properties.get("ImageConfig"), id + ".ImageConfig");
      String handler =
          imageConfig.get("Command") instanceof List<?> command && !command.isEmpty()
              ? String.valueOf(command.getFirst())
              : image
                  .command()
                  .orElseThrow(
                      () ->
                          new TemplateException(
                              id
                                  + " has no ImageConfig.Command and "
                                  + image.dockerfile()
                                  + " no CMD in exec form: no handler"));
      return new Code(image.functionPackage(), handler, Optional.empty());
    }
    if (!"Zip".equals(packageType)) {
      throw new TemplateException(id + ".PackageType must be Zip or Image, got " + packageType);
    }
    Object codeUri = properties.get("CodeUri");
    if (!(codeUri instanceof String codePath)) {
      throw new TemplateException(
          id + ".CodeUri must be a local path (S3 locations are not supported), got " + codeUri);
    }
    String runtime = requiredString(properties, "Runtime", id);
    if (!runtime.startsWith("java")) {
      throw new TemplateException(
          id + ".Runtime " + runtime + ": the local cloud runs only Java runtimes");
    }
    return new Code(
        directory.resolve(codePath).normalize(),
        requiredString(properties, "Handler", id),
        Optional.of(runtime));
  }

  private static FunctionDefinition definition(
      String id,
      Map<String, Object> properties,
      Code code,
      String stackName,
      List<LayerDefinition> layers) {
    Map<String, String> environment = new LinkedHashMap<>();
    variables(properties).forEach((k, v) -> environment.put(k, String.valueOf(v)));
    List<FunctionDefinition.HttpApiEvent> http = new ArrayList<>();
    List<FunctionDefinition.SqsEvent> sqs = new ArrayList<>();
    Map<String, Object> events = TemplateReader.asMap(properties.get("Events"), id + ".Events");
    for (Map.Entry<String, Object> entry : events.entrySet()) {
      String where = id + ".Events." + entry.getKey();
      Map<String, Object> event = TemplateReader.asMap(entry.getValue(), where);
      Map<String, Object> eventProperties =
          TemplateReader.asMap(event.get("Properties"), where + ".Properties");
      String type = String.valueOf(event.get("Type"));
      switch (type) {
        case "HttpApi" -> http.add(httpApiEvent(entry.getKey(), eventProperties));
        case "SQS" -> sqs.add(sqsEvent(entry.getKey(), eventProperties, where));
        default ->
            throw new TemplateException(
                where + ": event type " + type + " is not supported (only HttpApi and SQS)");
      }
    }
    Object name = properties.get("FunctionName");
    return new FunctionDefinition(
        id,
        name == null ? stackName + "-" + id : String.valueOf(name),
        code.path(),
        code.handler(),
        code.runtime(),
        architecture(properties, id),
        layers,
        integer(properties, "MemorySize", 128, id),
        integer(properties, "Timeout", 3, id),
        environment,
        optionalInteger(properties, "ReservedConcurrentExecutions", id),
        List.copyOf(http),
        List.copyOf(sqs));
  }

  /** {@code Architectures}: one of x86_64 and arm64, SAM's default x86_64. */
  private static String architecture(Map<String, Object> properties, String id) {
    Object value = properties.get("Architectures");
    if (value == null) {
      return "x86_64";
    }
    if (value instanceof List<?> list
        && list.size() == 1
        && ("x86_64".equals(list.get(0)) || "arm64".equals(list.get(0)))) {
      return (String) list.get(0);
    }
    throw new TemplateException(
        id + ".Architectures must be a list of one of x86_64 and arm64, got " + value);
  }

  private static FunctionDefinition.HttpApiEvent httpApiEvent(
      String eventId, Map<String, Object> properties) {
    Object path = properties.get("Path");
    Object method = properties.get("Method");
    if (path == null) {
      return new FunctionDefinition.HttpApiEvent(eventId, null, null);
    }
    String verb =
        method == null ? "ANY" : String.valueOf(method).toUpperCase(java.util.Locale.ROOT);
    return new FunctionDefinition.HttpApiEvent(eventId, verb, String.valueOf(path));
  }

  private static FunctionDefinition.SqsEvent sqsEvent(
      String eventId, Map<String, Object> properties, String where) {
    String queue = requiredString(properties, "Queue", where);
    Object responseTypes = properties.get("FunctionResponseTypes");
    boolean partial =
        responseTypes instanceof List<?> list && list.contains("ReportBatchItemFailures");
    Map<String, Object> scaling =
        TemplateReader.asMap(properties.get("ScalingConfig"), where + ".ScalingConfig");
    return new FunctionDefinition.SqsEvent(
        eventId,
        queue,
        integer(properties, "BatchSize", 10, where),
        integer(properties, "MaximumBatchingWindowInSeconds", 0, where),
        partial,
        optionalInteger(scaling, "MaximumConcurrency", where),
        !"false".equalsIgnoreCase(String.valueOf(properties.getOrDefault("Enabled", "true"))));
  }

  private static String requiredString(Map<String, Object> properties, String key, String where) {
    Object value = properties.get(key);
    if (value == null) {
      throw new TemplateException(where + " has no " + key);
    }
    return String.valueOf(value);
  }

  private static int integer(Map<String, Object> properties, String key, int fallback, String id) {
    return optionalInteger(properties, key, id).orElse(fallback);
  }

  private static OptionalInt optionalInteger(
      Map<String, Object> properties, String key, String where) {
    Object value = properties.get(key);
    if (value == null) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(String.valueOf(value).trim()));
    } catch (NumberFormatException e) {
      throw new TemplateException(where + "." + key + " must be an integer, got " + value, e);
    }
  }
}
