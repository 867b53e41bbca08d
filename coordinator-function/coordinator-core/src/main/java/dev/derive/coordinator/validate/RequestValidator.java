package dev.derive.coordinator.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityCatalogue;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.RequestSchema;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Validates a {@code POST /v1/derivatives} body given as a JSON tree and normalises it. The rules
 * are {@code protocol}'s {@link RequestSchema}, generated from the capability declarations and
 * checked by networknt's JSON Schema validator; its errors become {@link Violation}s naming their
 * JSON pointer (RFC 6901) through {@link SchemaViolations}. What a schema does not say is checked
 * here, each by its own rule: no control character in any string or member name ({@link
 * ControlCharacters}, first, so no message echoes one), the source key's S3 and path rules ({@link
 * ObjectKeys}), a non-blank version id, and the callback URL policy ({@link CallbackUrlPolicy}).
 * Before the schema sees the body, a member whose value is {@code null} is dropped (it counts as
 * absent) and the target media type is reduced to its lower-case essence.
 */
public final class RequestValidator {
  /** Longest a request may wait for its derivative, in seconds ({@link RequestSchema}). */
  public static final int MAX_WAIT_SECONDS = RequestSchema.MAX_WAIT_SECONDS;

  /** Most operations a request's explicit {@code steps} may list ({@link RequestSchema}). */
  public static final int MAX_STEPS = RequestSchema.MAX_STEPS;

  private static final String MEDIA_TYPE = "mediaType";

  private final CapabilityCatalogue capabilities;
  private final ObjectNode schemaDocument;
  private final Schema schema;
  private final SchemaViolations violations;
  private final CallbackUrlPolicy callbackPolicy;

  /**
   * A validator for the targets and steps of {@code capabilities}, with the target options their
   * operations consume.
   *
   * @throws dev.derive.protocol.capability.InvalidDeclarationException if the declarations break a
   *     rule they share
   */
  public RequestValidator(List<CapabilityDescriptor> capabilities) {
    this(new CapabilityCatalogue(capabilities), CallbackUrlPolicy.deployed());
  }

  /**
   * @param capabilities the capabilities deployed: target media types, target options and explicit
   *     steps are checked against their declarations
   * @param callbackPolicy which {@code callback} URLs are accepted
   */
  public RequestValidator(CapabilityCatalogue capabilities, CallbackUrlPolicy callbackPolicy) {
    this.capabilities = capabilities;
    this.callbackPolicy = callbackPolicy;
    this.schemaDocument =
        RequestSchema.of(capabilities.capabilities(), capabilities.targetOptions());
    this.schema =
        SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(schemaDocument);
    this.schema.initializeValidators();
    this.violations = new SchemaViolations(schemaDocument);
  }

  /** The capabilities whose requests this validator takes. */
  public CapabilityCatalogue capabilities() {
    return capabilities;
  }

  /** The JSON Schema requests are validated against (a copy), as {@code GET /v1/schema} serves. */
  public ObjectNode schema() {
    return schemaDocument.deepCopy();
  }

  /**
   * Validates and normalises {@code body}.
   *
   * @throws InvalidRequestException listing every violation, if there is any
   */
  public DerivativeRequest validate(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw new InvalidRequestException(
          List.of(new Violation("", "the request body must be a JSON object")));
    }
    List<Violation> control = ControlCharacters.in(body);
    if (!control.isEmpty()) {
      throw new InvalidRequestException(control); // before any message could echo such a string
    }
    ObjectNode request = (ObjectNode) withoutNullMembers(body);
    normaliseTargetMediaType(request);
    List<Violation> found = new ArrayList<>(violations.of(schema.validate(request)));
    sourceKeyRules(request, found);
    versionIdRule(request, found);
    callbackRule(request, found);
    if (!found.isEmpty()) {
      throw new InvalidRequestException(found);
    }
    return new DerivativeRequest(
        new SourceSpec(
            request.path("source").path("key").textValue(),
            request.path("source").path("versionId").textValue()),
        request.has("target") ? target(request.get("target")) : null,
        request.has("steps") ? steps(request.get("steps")) : List.of(),
        request.path("wait").asInt(0),
        request.path("callback").textValue());
  }

  /** S3's and Derive's rules for the source key ({@link ObjectKeys}): bytes, '/', '..'. */
  private static void sourceKeyRules(JsonNode request, List<Violation> found) {
    checkString(request.path("source").path("key"), "/source/key", ObjectKeys::problem, found);
  }

  /** A version id that is only white space names no version. */
  private static void versionIdRule(JsonNode request, List<Violation> found) {
    checkString(
        request.path("source").path("versionId"),
        "/source/versionId",
        id ->
            id.isBlank()
                ? Optional.of(
                    "must be a non-blank S3 version id of at most "
                        + RequestSchema.MAX_VERSION_ID_LENGTH
                        + " characters")
                : Optional.empty(),
        found);
  }

  /** The callback URL policy: public https hosts only (loopback for local work). */
  private void callbackRule(JsonNode request, List<Violation> found) {
    checkString(request.path("callback"), "/callback", callbackPolicy::problem, found);
  }

  /**
   * Applies {@code rule} to {@code value} if it is a string the schema found nothing wrong with.
   */
  private static void checkString(
      JsonNode value,
      String pointer,
      java.util.function.Function<String, Optional<String>> rule,
      List<Violation> found) {
    if (!value.isTextual() || found.stream().anyMatch(v -> v.pointer().equals(pointer))) {
      return;
    }
    rule.apply(value.textValue()).ifPresent(p -> found.add(new Violation(pointer, p)));
  }

  /**
   * Reduces {@code target.mediaType} to its essence ({@code Image/JPEG; q=1} is {@code
   * image/jpeg}); a value that is no media type is left for the schema to refuse.
   */
  private static void normaliseTargetMediaType(ObjectNode request) {
    if (request.get("target") instanceof ObjectNode target
        && target.get(MEDIA_TYPE) instanceof JsonNode given
        && given.isTextual()) {
      try {
        target.put(MEDIA_TYPE, MediaTypes.essence(given.textValue()));
      } catch (IllegalArgumentException notAMediaType) {
        // the schema's enum names it
      }
    }
  }

  private static TargetSpec target(JsonNode target) {
    Map<String, Object> params = values(target);
    return new TargetSpec((String) params.get(MEDIA_TYPE), params);
  }

  private static List<StepSpec> steps(JsonNode steps) {
    List<StepSpec> specs = new ArrayList<>();
    for (JsonNode step : steps) {
      specs.add(
          new StepSpec(
              step.get("capability").textValue(),
              step.get("operation").textValue(),
              step.has("params") ? values(step.get("params")) : Map.of()));
    }
    return specs;
  }

  /**
   * The members of a schema-valid object of parameters as Java values: integers as {@link Integer}
   * ({@code 256.0} and {@code 2.56e2} are {@code 256}), booleans and strings as they are.
   */
  private static Map<String, Object> values(JsonNode object) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> member = it.next();
      JsonNode value = member.getValue();
      values.put(
          member.getKey(),
          value.isNumber()
              ? value.decimalValue().intValueExact()
              : value.isBoolean() ? value.booleanValue() : value.textValue());
    }
    return values;
  }

  /** A copy of {@code node} without the object members whose value is {@code null}. */
  private static JsonNode withoutNullMembers(JsonNode node) {
    if (node.isObject()) {
      ObjectNode copy = ((ObjectNode) node).objectNode();
      node.fields()
          .forEachRemaining(
              m -> {
                if (!m.getValue().isNull()) {
                  copy.set(m.getKey(), withoutNullMembers(m.getValue()));
                }
              });
      return copy;
    }
    if (node.isArray()) {
      var copy = ((com.fasterxml.jackson.databind.node.ArrayNode) node).arrayNode();
      node.forEach(e -> copy.add(withoutNullMembers(e)));
      return copy;
    }
    return node;
  }

  /** Escapes a member name for a JSON pointer (RFC 6901 section 3: {@code ~0}, {@code ~1}). */
  static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
