package dev.derive.protocol.capability;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.TreeSet;

/**
 * The JSON Schema (draft 2020-12) of a {@code POST /v1/derivatives} body, generated from the
 * capability declarations: the target media types the capabilities write, every target option, and
 * for explicit steps each capability's operations with every parameter's type, bounds, step,
 * allowed values, pattern, default and requiredness ({@link ParameterDescriptor}) and the rules
 * over several parameters ({@link ParameterGroup}). The coordinator validates requests against it
 * and serves it at {@code GET /v1/schema} and in its OpenAPI document (docs/request-schema.md).
 *
 * <p>The schema has no {@code $ref}: every part is written in place, so it can be embedded as an
 * OpenAPI 3.1 component as it is. A member whose value is {@code null} counts as absent; the schema
 * describes the body without such members. What it cannot say stays with the coordinator: source
 * keys' 1024-byte UTF-8 limit and path rules, a non-blank version id, which callback hosts are
 * allowed, control characters, and which preset names exist. The schema of each parameter and
 * operation is {@link ParameterSchema}'s.
 */
public final class RequestSchema {
  /** The JSON Schema dialect written as {@code $schema}. */
  public static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

  /** The schema's {@code $id}. */
  public static final String ID = "https://derive.dev/schemas/v1/derivative-request";

  /**
   * Longest a request may wait for its derivative, in seconds: below API Gateway's 30-second
   * integration timeout, leaving time for the rest of the request.
   */
  public static final int MAX_WAIT_SECONDS = 25;

  /** Most operations a request's explicit {@code steps} may list. */
  public static final int MAX_STEPS = 16;

  /**
   * Longest source key, in characters: S3's limit is 1024 UTF-8 bytes, which no key of more
   * characters can meet (the byte count itself is checked by the coordinator).
   */
  public static final int MAX_KEY_LENGTH = 1024;

  /** Longest version id accepted, in characters (S3 version ids are far shorter). */
  public static final int MAX_VERSION_ID_LENGTH = 1024;

  /** Longest callback URL accepted, in characters (a common browser and CDN limit). */
  public static final int MAX_CALLBACK_LENGTH = 2048;

  /** The members a request names its derivative with; exactly one of them is given. */
  public static final List<String> ALTERNATIVES = List.of("target", "steps", "preset");

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private RequestSchema() {}

  /** The schema for the targets and steps of {@code capabilities}, with {@code targetOptions}. */
  public static ObjectNode of(
      List<CapabilityDescriptor> capabilities, List<ParameterDescriptor> targetOptions) {
    ObjectNode schema = NODES.objectNode();
    schema.put("$schema", DIALECT);
    schema.put("$id", ID);
    schema.put("title", "Derivative request");
    schema.put(
        "description",
        "The body of POST /v1/derivatives: a source and exactly one of target, steps or preset;"
            + " optionally wait and callback. A member whose value is null counts as absent.");
    schema.put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    properties.set("source", source());
    properties.set("target", target(capabilities, targetOptions));
    properties.set("steps", steps(capabilities));
    properties.set(
        "preset",
        NODES
            .objectNode()
            .put("type", "string")
            .put("minLength", 1)
            .put("description", "A preset's name, in place of target or steps (GET /v1/presets)."));
    properties.set(
        "wait",
        NODES
            .objectNode()
            .put("type", "integer")
            .put("minimum", 0)
            .put("maximum", MAX_WAIT_SECONDS)
            .put("default", 0)
            .put(
                "description",
                "Seconds to wait for the derivative before answering 202 with the job."));
    properties.set(
        "callback",
        NODES
            .objectNode()
            .put("type", "string")
            .put("format", "uri")
            .put("maxLength", MAX_CALLBACK_LENGTH)
            .put(
                "description",
                "An absolute https URL of a public host, without credentials or fragment, to POST"
                    + " the signed completion event to (docs/completion-events.md)."));
    schema.putArray("required").add("source");
    schema.put("additionalProperties", false);
    ArrayNode oneOf = schema.putArray("oneOf");
    ALTERNATIVES.forEach(a -> oneOf.addObject().putArray("required").add(a));
    return schema;
  }

  private static ObjectNode source() {
    ObjectNode source = NODES.objectNode().put("type", "object");
    source.put("description", "The object in the source bucket to derive from.");
    ObjectNode properties = source.putObject("properties");
    properties.set(
        "key",
        NODES
            .objectNode()
            .put("type", "string")
            .put("minLength", 1)
            .put("maxLength", MAX_KEY_LENGTH)
            .put(
                "description",
                "Object key: at most 1024 UTF-8 bytes, no control characters, no leading '/'"
                    + " and no '..' segment."));
    properties.set(
        "versionId",
        NODES
            .objectNode()
            .put("type", "string")
            .put("minLength", 1)
            .put("maxLength", MAX_VERSION_ID_LENGTH)
            .put("description", "S3 version id (not blank); the current version when absent."));
    source.putArray("required").add("key");
    source.put("additionalProperties", false);
    return source;
  }

  private static ObjectNode target(
      List<CapabilityDescriptor> capabilities, List<ParameterDescriptor> targetOptions) {
    ObjectNode target = NODES.objectNode().put("type", "object");
    target.put(
        "description",
        "What to derive; the planner chooses the chain of capabilities that makes it. Media"
            + " type names are case-insensitive and may carry parameters.");
    ObjectNode properties = target.putObject("properties");
    TreeSet<String> writes = new TreeSet<>();
    capabilities.forEach(c -> writes.addAll(c.writes()));
    ObjectNode mediaType = properties.putObject("mediaType").put("type", "string");
    ArrayNode values = mediaType.putArray("enum");
    writes.forEach(values::add);
    mediaType.put("description", "The media type to make.");
    targetOptions.forEach(o -> properties.set(o.name(), ParameterSchema.parameter(o)));
    target.putArray("required").add("mediaType");
    target.put("additionalProperties", false);
    return target;
  }

  private static ObjectNode steps(List<CapabilityDescriptor> capabilities) {
    ObjectNode steps = NODES.objectNode().put("type", "array");
    steps.put(
        "description", "Explicit operations, in order; consecutive ones of a capability fuse.");
    steps.put("minItems", 1).put("maxItems", MAX_STEPS);
    ObjectNode step = steps.putObject("items").put("type", "object");
    ObjectNode properties = step.putObject("properties");
    ObjectNode capability = properties.putObject("capability").put("type", "string");
    ArrayNode names = capability.putArray("enum");
    capabilities.forEach(c -> names.add(c.name()));
    properties.putObject("operation").put("type", "string");
    properties.putObject("params").put("type", "object");
    step.putArray("required").add("capability").add("operation");
    step.put("additionalProperties", false);
    ArrayNode cases = step.putArray("allOf");
    for (CapabilityDescriptor c : capabilities) {
      ObjectNode operations = NODES.objectNode().put("type", "string");
      ArrayNode offered = operations.putArray("enum");
      c.operations().forEach(o -> offered.add(o.name()));
      ObjectNode whenCapability = cases.addObject();
      whenCapability.set("if", matching(c.name(), null));
      whenCapability.putObject("then").putObject("properties").set("operation", operations);
      for (OperationDescriptor o : c.operations()) {
        ObjectNode whenOperation = cases.addObject();
        whenOperation.set("if", matching(c.name(), o.name()));
        ObjectNode then = whenOperation.putObject("then");
        then.putObject("properties").set("params", ParameterSchema.params(o));
        if (!o.groups().isEmpty() || o.parameters().stream().anyMatch(p -> p.mustBeGiven())) {
          then.putArray("required").add("params"); // else its rules would never be checked
        }
      }
    }
    return steps;
  }

  /** An {@code if} schema matching steps of {@code capability} (and {@code operation}). */
  private static ObjectNode matching(String capability, String operation) {
    ObjectNode condition = NODES.objectNode();
    ObjectNode properties = condition.putObject("properties");
    properties.putObject("capability").put("const", capability);
    ArrayNode required = condition.putArray("required").add("capability");
    if (operation != null) {
      properties.putObject("operation").put("const", operation);
      required.add("operation");
    }
    return condition;
  }
}
