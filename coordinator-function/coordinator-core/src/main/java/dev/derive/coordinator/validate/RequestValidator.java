package dev.derive.coordinator.validate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.Capabilities;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.Conversion;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Validates a {@code POST /v1/derivatives} body given as a JSON tree and normalises it: {@code
 * source}, either {@code target} or explicit {@code steps}, {@code wait} and {@code callback}
 * ({@link CallbackUrlPolicy}). Target options and step parameters are checked against the
 * declarations in {@code protocol}'s {@code Capabilities} (names, types, bounds, allowed values,
 * patterns), so the rules live in one place; whether an option applies to the chain from the source
 * is the planner's to say. Unknown members are rejected, and so is any string holding a control
 * character ({@link ControlCharacters}); every violation names its JSON pointer (RFC 6901).
 */
public final class RequestValidator {
  private static final Set<String> ROOT_FIELDS =
      Set.of("source", "target", "steps", "wait", "callback");
  private static final Set<String> STEP_FIELDS = Set.of("capability", "operation", "params");

  /**
   * Longest a request may wait for its derivative, in seconds: below API Gateway's 30-second
   * integration timeout, leaving time for the rest of the request.
   */
  public static final int MAX_WAIT_SECONDS = 25;

  /** Most operations a request's explicit {@code steps} may list. */
  public static final int MAX_STEPS = 16;

  private static final Set<String> SOURCE_FIELDS = Set.of("key", "versionId");
  private static final String MEDIA_TYPE = "mediaType";

  /** Longest version id accepted, in characters (S3 version ids are far shorter). */
  static final int MAX_VERSION_ID_LENGTH = 1024;

  private final List<CapabilityDescriptor> capabilities;
  private final Map<String, ParameterDescriptor> targetOptions;
  private final CallbackUrlPolicy callbackPolicy;

  /**
   * A validator for the targets that {@code capabilities} can produce, with the target options of
   * {@link Capabilities#TARGET_OPTIONS}.
   */
  public RequestValidator(List<CapabilityDescriptor> capabilities) {
    this(capabilities, Capabilities.TARGET_OPTIONS);
  }

  /**
   * @param capabilities the capabilities deployed: target media types and explicit steps are
   *     checked against them
   * @param targetOptions the options a target may give besides {@code mediaType}
   */
  public RequestValidator(
      List<CapabilityDescriptor> capabilities, List<ParameterDescriptor> targetOptions) {
    this(capabilities, targetOptions, CallbackUrlPolicy.deployed());
  }

  /**
   * @param capabilities the capabilities deployed: target media types and explicit steps are
   *     checked against them
   * @param targetOptions the options a target may give besides {@code mediaType}
   * @param callbackPolicy which {@code callback} URLs are accepted
   */
  public RequestValidator(
      List<CapabilityDescriptor> capabilities,
      List<ParameterDescriptor> targetOptions,
      CallbackUrlPolicy callbackPolicy) {
    this.callbackPolicy = callbackPolicy;
    this.capabilities = List.copyOf(capabilities);
    Map<String, ParameterDescriptor> options = new LinkedHashMap<>();
    targetOptions.forEach(o -> options.put(o.name(), o));
    this.targetOptions = Map.copyOf(options);
  }

  /**
   * Validates and normalises {@code body}.
   *
   * @throws InvalidRequestException listing every violation, if there is any
   */
  public DerivativeRequest validate(JsonNode body) {
    List<Violation> violations = new ArrayList<>();
    if (body == null || !body.isObject()) {
      throw new InvalidRequestException(
          List.of(new Violation("", "the request body must be a JSON object")));
    }
    List<Violation> control = ControlCharacters.in(body);
    if (!control.isEmpty()) {
      throw new InvalidRequestException(control); // before any message could echo such a string
    }
    rejectUnknown(body, "", ROOT_FIELDS, violations);
    SourceSpec source = source(body.get("source"), violations);
    JsonNode targetNode = body.get("target");
    JsonNode stepsNode = body.get("steps");
    boolean hasTarget = targetNode != null && !targetNode.isNull();
    boolean hasSteps = stepsNode != null && !stepsNode.isNull();
    TargetSpec target = null;
    List<StepSpec> steps = List.of();
    if (hasTarget && hasSteps) {
      violations.add(new Violation("/steps", "give either target or steps, not both"));
    } else if (hasSteps) {
      steps = steps(stepsNode, violations);
    } else {
      target = target(targetNode, violations);
    }
    int wait = waitSeconds(body.get("wait"), violations);
    String callback = callback(body.get("callback"), violations);
    if (!violations.isEmpty()) {
      throw new InvalidRequestException(violations);
    }
    return new DerivativeRequest(source, target, steps, wait, callback);
  }

  private SourceSpec source(JsonNode source, List<Violation> violations) {
    if (!isObject(source, "/source", violations)) {
      return null;
    }
    rejectUnknown(source, "/source", SOURCE_FIELDS, violations);
    String key = null;
    JsonNode keyNode = source.get("key");
    if (keyNode == null || keyNode.isNull()) {
      violations.add(new Violation("/source/key", "is required"));
    } else if (!keyNode.isTextual()) {
      violations.add(new Violation("/source/key", "must be a string"));
    } else {
      key = keyNode.textValue();
      ObjectKeys.problem(key).ifPresent(p -> violations.add(new Violation("/source/key", p)));
    }
    String versionId = null;
    JsonNode versionNode = source.get("versionId");
    if (versionNode != null && !versionNode.isNull()) {
      if (!versionNode.isTextual()) {
        violations.add(new Violation("/source/versionId", "must be a string"));
      } else {
        versionId = versionNode.textValue();
        if (versionId.isBlank()
            || versionId.length() > MAX_VERSION_ID_LENGTH
            || versionId.chars().anyMatch(Character::isISOControl)) {
          violations.add(
              new Violation(
                  "/source/versionId",
                  "must be a non-blank S3 version id of at most "
                      + MAX_VERSION_ID_LENGTH
                      + " characters"));
        }
      }
    }
    return new SourceSpec(key, versionId);
  }

  private TargetSpec target(JsonNode target, List<Violation> violations) {
    if (!isObject(target, "/target", violations)) {
      return null;
    }
    Optional<String> mediaType = targetMediaType(target.get(MEDIA_TYPE), violations);
    Map<String, Object> params = new LinkedHashMap<>();
    mediaType.ifPresent(m -> params.put(MEDIA_TYPE, m));
    for (Iterator<String> names = target.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (name.equals(MEDIA_TYPE)) {
        continue;
      }
      String pointer = "/target/" + escape(name);
      ParameterDescriptor option = targetOptions.get(name);
      if (option == null) {
        violations.add(new Violation(pointer, "unknown field"));
        continue;
      }
      JsonNode value = target.get(name);
      if (value.isNull()) {
        continue;
      }
      normalise(option, value, pointer, violations).ifPresent(v -> params.put(name, v));
    }
    return mediaType.map(m -> new TargetSpec(m, params)).orElse(null);
  }

  private List<StepSpec> steps(JsonNode steps, List<Violation> violations) {
    if (!steps.isArray()) {
      violations.add(new Violation("/steps", "must be an array"));
      return List.of();
    }
    if (steps.isEmpty() || steps.size() > MAX_STEPS) {
      violations.add(new Violation("/steps", "must hold 1 to " + MAX_STEPS + " operations"));
      return List.of();
    }
    List<StepSpec> specs = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      String pointer = "/steps/" + i;
      JsonNode step = steps.get(i);
      if (!isObject(step, pointer, violations)) {
        continue;
      }
      rejectUnknown(step, pointer, STEP_FIELDS, violations);
      Optional<CapabilityDescriptor> capability =
          text(step.get("capability"), pointer + "/capability", violations)
              .flatMap(
                  name -> {
                    Optional<CapabilityDescriptor> found =
                        capabilities.stream().filter(c -> c.name().equals(name)).findFirst();
                    if (found.isEmpty()) {
                      violations.add(
                          new Violation(
                              pointer + "/capability",
                              "unknown capability '"
                                  + name
                                  + "'; known: "
                                  + capabilities.stream()
                                      .map(CapabilityDescriptor::name)
                                      .toList()));
                    }
                    return found;
                  });
      Optional<String> operationName =
          text(step.get("operation"), pointer + "/operation", violations);
      if (capability.isEmpty() || operationName.isEmpty()) {
        continue;
      }
      Optional<OperationDescriptor> operation = capability.get().operation(operationName.get());
      if (operation.isEmpty()) {
        violations.add(
            new Violation(
                pointer + "/operation",
                "capability "
                    + capability.get().name()
                    + " has no operation '"
                    + operationName.get()
                    + "'; it offers "
                    + capability.get().operations().stream()
                        .map(OperationDescriptor::name)
                        .toList()));
        continue;
      }
      Map<String, Object> params = new LinkedHashMap<>();
      JsonNode given = step.get("params");
      if (given != null && !given.isNull()) {
        if (!given.isObject()) {
          violations.add(new Violation(pointer + "/params", "must be a JSON object"));
          continue;
        }
        for (Iterator<String> names = given.fieldNames(); names.hasNext(); ) {
          String name = names.next();
          String paramPointer = pointer + "/params/" + escape(name);
          Optional<ParameterDescriptor> parameter = operation.get().parameter(name);
          if (parameter.isEmpty()) {
            violations.add(new Violation(paramPointer, "unknown field"));
            continue;
          }
          if (given.get(name).isNull()) {
            continue;
          }
          normalise(parameter.get(), given.get(name), paramPointer, violations)
              .ifPresent(v -> params.put(name, v));
        }
      }
      specs.add(new StepSpec(capability.get().name(), operation.get().name(), params));
    }
    return specs;
  }

  private String callback(JsonNode callback, List<Violation> violations) {
    if (callback == null || callback.isNull()) {
      return null;
    }
    if (!callback.isTextual()) {
      violations.add(new Violation("/callback", "must be a string (an https URL)"));
      return null;
    }
    String url = callback.asText();
    callbackPolicy.problem(url).ifPresent(p -> violations.add(new Violation("/callback", p)));
    return url;
  }

  private static int waitSeconds(JsonNode wait, List<Violation> violations) {
    if (wait == null || wait.isNull()) {
      return 0;
    }
    Optional<Object> seconds =
        normalise(
            ParameterDescriptor.integer("wait", 0, MAX_WAIT_SECONDS, 0, "seconds"),
            wait,
            "/wait",
            violations);
    return seconds.map(s -> (Integer) s).orElse(0);
  }

  private static Optional<String> text(JsonNode node, String pointer, List<Violation> violations) {
    if (node == null || node.isNull()) {
      violations.add(new Violation(pointer, "is required"));
      return Optional.empty();
    }
    if (!node.isTextual()) {
      violations.add(new Violation(pointer, "must be a string"));
      return Optional.empty();
    }
    return Optional.of(node.textValue());
  }

  private Optional<String> targetMediaType(JsonNode node, List<Violation> violations) {
    String pointer = "/target/" + MEDIA_TYPE;
    if (node == null || node.isNull()) {
      violations.add(new Violation(pointer, "is required"));
      return Optional.empty();
    }
    if (!node.isTextual()) {
      violations.add(new Violation(pointer, "must be a string"));
      return Optional.empty();
    }
    Set<String> supported = supportedTargets();
    String essence;
    try {
      essence = MediaTypes.essence(node.textValue());
    } catch (IllegalArgumentException e) {
      essence = null;
    }
    if (essence == null || !supported.contains(essence)) {
      violations.add(
          new Violation(
              pointer,
              "unsupported media type '" + node.textValue() + "'; supported: " + supported));
      return Optional.empty();
    }
    return Optional.of(essence);
  }

  private static Optional<Object> normalise(
      ParameterDescriptor parameter, JsonNode value, String pointer, List<Violation> violations) {
    switch (parameter.type()) {
      case "integer" -> {
        if (!value.isNumber()) {
          violations.add(new Violation(pointer, "must be an integer"));
          return Optional.empty();
        }
        BigDecimal number = value.decimalValue();
        if (number.stripTrailingZeros().scale() > 0) {
          violations.add(new Violation(pointer, "must be an integer"));
          return Optional.empty();
        }
        if ((parameter.minimum() != null
                && number.compareTo(BigDecimal.valueOf(parameter.minimum())) < 0)
            || (parameter.maximum() != null
                && number.compareTo(BigDecimal.valueOf(parameter.maximum())) > 0)) {
          violations.add(
              new Violation(
                  pointer,
                  "must be between "
                      + parameter.minimum()
                      + " and "
                      + parameter.maximum()
                      + ", got "
                      + number.toPlainString()));
          return Optional.empty();
        }
        return Optional.of(number.intValueExact());
      }
      case "boolean" -> {
        if (!value.isBoolean()) {
          violations.add(new Violation(pointer, "must be true or false"));
          return Optional.empty();
        }
        return Optional.of(value.booleanValue());
      }
      case "string" -> {
        if (!value.isTextual()) {
          violations.add(new Violation(pointer, "must be a string"));
          return Optional.empty();
        }
        if (!parameter.allowedValues().isEmpty()
            && !parameter.allowedValues().contains(value.textValue())) {
          violations.add(
              new Violation(
                  pointer,
                  "unsupported value '"
                      + value.textValue()
                      + "'; allowed: "
                      + parameter.allowedValues()));
          return Optional.empty();
        }
        if (parameter.pattern() != null && !value.textValue().matches(parameter.pattern())) {
          violations.add(new Violation(pointer, "must match " + parameter.pattern()));
          return Optional.empty();
        }
        return Optional.of(value.textValue());
      }
      default ->
          throw new IllegalStateException(
              "capability declares parameter type " + parameter.type() + " the validator lacks");
    }
  }

  private Set<String> supportedTargets() {
    Set<String> targets = new TreeSet<>();
    for (CapabilityDescriptor capability : capabilities) {
      for (Conversion conversion : capability.conversions()) {
        targets.add(conversion.target());
      }
    }
    return targets;
  }

  private static boolean isObject(JsonNode node, String pointer, List<Violation> violations) {
    if (node == null || node.isNull()) {
      violations.add(new Violation(pointer, "is required"));
      return false;
    }
    if (!node.isObject()) {
      violations.add(new Violation(pointer, "must be a JSON object"));
      return false;
    }
    return true;
  }

  private static void rejectUnknown(
      JsonNode node, String pointer, Set<String> allowed, List<Violation> violations) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!allowed.contains(name)) {
        violations.add(new Violation(pointer + "/" + escape(name), "unknown field"));
      }
    }
  }

  /** Escapes a member name for a JSON pointer (RFC 6901 section 3: {@code ~0}, {@code ~1}). */
  static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
