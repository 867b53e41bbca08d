package dev.derive.coordinator.validate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.protocol.MediaTypes;
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
 * Validates a {@code POST /v1/derivatives} body given as a JSON tree and normalises it. The target
 * options are checked against the capability descriptors (names, types, bounds, allowed values), so
 * the rules live in one place: {@code protocol}'s {@code Capabilities}. Unknown members are
 * rejected; every violation names its JSON pointer (RFC 6901).
 */
public final class RequestValidator {
  private static final Set<String> ROOT_FIELDS = Set.of("source", "target");
  private static final Set<String> SOURCE_FIELDS = Set.of("key", "versionId");
  private static final String MEDIA_TYPE = "mediaType";

  /** Longest version id accepted, in characters (S3 version ids are far shorter). */
  static final int MAX_VERSION_ID_LENGTH = 1024;

  private final List<CapabilityDescriptor> capabilities;

  /** A validator for the targets that {@code capabilities} can produce. */
  public RequestValidator(List<CapabilityDescriptor> capabilities) {
    this.capabilities = List.copyOf(capabilities);
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
    rejectUnknown(body, "", ROOT_FIELDS, violations);
    SourceSpec source = source(body.get("source"), violations);
    TargetSpec target = target(body.get("target"), violations);
    if (!violations.isEmpty()) {
      throw new InvalidRequestException(violations);
    }
    return new DerivativeRequest(source, target);
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
    if (mediaType.isEmpty()) {
      return null;
    }
    Map<String, ParameterDescriptor> declared = parametersProducing(mediaType.get());
    Map<String, Object> params = new LinkedHashMap<>();
    params.put(MEDIA_TYPE, mediaType.get());
    for (Iterator<String> names = target.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (name.equals(MEDIA_TYPE)) {
        continue;
      }
      String pointer = "/target/" + escape(name);
      ParameterDescriptor parameter = declared.get(name);
      if (parameter == null) {
        violations.add(new Violation(pointer, "unknown field"));
        continue;
      }
      JsonNode value = target.get(name);
      if (value.isNull()) {
        continue;
      }
      normalise(parameter, value, pointer, violations).ifPresent(v -> params.put(name, v));
    }
    for (ParameterDescriptor parameter : declared.values()) {
      JsonNode given = target.get(parameter.name());
      if (parameter.defaultValue() == null && (given == null || given.isNull())) {
        violations.add(new Violation("/target/" + escape(parameter.name()), "is required"));
      }
    }
    return new TargetSpec(mediaType.get(), params);
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

  /** The parameters of every capability that writes {@code mediaType}, first declaration wins. */
  private Map<String, ParameterDescriptor> parametersProducing(String mediaType) {
    Map<String, ParameterDescriptor> parameters = new LinkedHashMap<>();
    for (CapabilityDescriptor capability : capabilities) {
      boolean writes =
          capability.conversions().stream().anyMatch(c -> c.target().equals(mediaType));
      if (!writes) {
        continue;
      }
      for (OperationDescriptor operation : capability.operations()) {
        for (ParameterDescriptor parameter : operation.parameters()) {
          parameters.putIfAbsent(parameter.name(), parameter);
        }
      }
    }
    return parameters;
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
