package dev.derive.protocol.capability;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One parameter an operation accepts (or one option a request's target accepts), as its
 * capability's declaration states it ({@link CapabilityDeclarations}).
 *
 * @param name parameter name as it appears in requests
 * @param type {@code integer}, {@code string} or {@code boolean}
 * @param minimum smallest allowed integer, or {@code null}
 * @param maximum largest allowed integer, or {@code null}
 * @param allowedValues allowed strings, or empty for any
 * @param pattern regular expression (Java syntax, whole value) a string must match, or {@code null}
 * @param defaultValue value filled in when the request omits it, or {@code null} if the parameter
 *     is optional without a default
 * @param description one line for {@code GET /v1/capabilities}
 * @param multipleOf the step an integer takes from {@code minimum} (e.g. {@code 90} for 90, 180,
 *     270), or {@code null} for every integer in range
 * @param required {@code true} if an explicit step must give it (the worker has no value to fall
 *     back on), {@code null} otherwise
 * @param url how an image URL spells it when it is a target option, or {@code null} for no URL
 *     option of its own
 * @param examples values it accepts, shown in the JSON Schema ({@code examples}); a parameter with
 *     a {@code pattern} declares at least one, so tools and tests have a value the pattern takes
 * @param outputDefaults the default for a step writing a given media type, in place of {@code
 *     defaultValue} (e.g. a quality that looks the same in each format: AVIF needs a lower number
 *     than JPEG); empty for one default whatever the output
 * @param sourceObject {@code true} if a string value is the key of another object of the request's
 *     source bucket that the step reads beside its input (a watermark): the coordinator looks it up
 *     as it does the source, puts its identity into the derivative's fingerprint and pins it in the
 *     step message ({@code StepMessage#objects}); {@code null} otherwise
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ParameterDescriptor(
    String name,
    String type,
    Integer minimum,
    Integer maximum,
    List<String> allowedValues,
    String pattern,
    Object defaultValue,
    String description,
    Integer multipleOf,
    Boolean required,
    UrlSpelling url,
    List<String> examples,
    Map<String, Object> outputDefaults,
    Boolean sourceObject) {
  /**
   * The type of whole-number parameters (JSON numbers without a fraction, Java {@link Integer}).
   */
  public static final String INTEGER = "integer";

  /** The type of string parameters. */
  public static final String STRING = "string";

  /** The type of boolean parameters. */
  public static final String BOOLEAN = "boolean";

  public ParameterDescriptor {
    allowedValues = List.copyOf(allowedValues);
    examples = examples == null ? List.of() : List.copyOf(examples);
    outputDefaults = outputDefaults == null ? Map.of() : Map.copyOf(new TreeMap<>(outputDefaults));
    if (!outputDefaults.isEmpty() && defaultValue == null) {
      throw new IllegalArgumentException(
          name + ": outputDefaults need a defaultValue for the other outputs");
    }
    if (Boolean.FALSE.equals(sourceObject)) {
      sourceObject = null;
    }
    if (sourceObject != null && !STRING.equals(type)) {
      throw new IllegalArgumentException(name + ": a sourceObject parameter is a string (a key)");
    }
    if (Boolean.FALSE.equals(required)) {
      required = null; // one spelling of "optional", so the JSON of GET /v1/capabilities omits it
    }
    if (!List.of(INTEGER, STRING, BOOLEAN).contains(type)) {
      throw new IllegalArgumentException(
          name + ": type must be integer, string or boolean, not " + type);
    }
    if (multipleOf != null && (multipleOf < 1 || minimum == null || minimum % multipleOf != 0)) {
      throw new IllegalArgumentException(
          name + ": multipleOf needs a minimum that is a multiple of it, got " + multipleOf);
    }
    if (minimum != null && maximum != null && minimum > maximum) {
      throw new IllegalArgumentException(
          name + ": minimum " + minimum + " is over maximum " + maximum);
    }
  }

  /**
   * The default of a step writing {@code outputMediaType}: its {@link #outputDefaults} entry, else
   * {@link #defaultValue} ({@code null} when there is none).
   */
  public Object defaultFor(String outputMediaType) {
    Object value = outputMediaType == null ? null : outputDefaults.get(outputMediaType);
    return value != null ? value : defaultValue;
  }

  /** Whether an explicit step must give this parameter. */
  public boolean mustBeGiven() {
    return Boolean.TRUE.equals(required);
  }

  /**
   * This parameter as a request's target option: without a default (the consuming operation's
   * applies) and never required, so a target need not give it.
   */
  public ParameterDescriptor asTargetOption() {
    return new ParameterDescriptor(
        name,
        type,
        minimum,
        maximum,
        allowedValues,
        pattern,
        null,
        description,
        multipleOf,
        null,
        url,
        examples,
        Map.of(),
        sourceObject);
  }

  /** Whether a value names another object of the source bucket ({@link #sourceObject}). */
  public boolean namesSourceObject() {
    return Boolean.TRUE.equals(sourceObject);
  }

  /**
   * Whether {@code other} accepts exactly the values this one does (type, bounds, step, allowed
   * values, pattern); descriptions, defaults and requiredness aside.
   */
  public boolean acceptsTheSameAs(ParameterDescriptor other) {
    return type.equals(other.type)
        && java.util.Objects.equals(minimum, other.minimum)
        && java.util.Objects.equals(maximum, other.maximum)
        && java.util.Objects.equals(multipleOf, other.multipleOf)
        && allowedValues.equals(other.allowedValues)
        && java.util.Objects.equals(pattern, other.pattern)
        && namesSourceObject() == other.namesSourceObject();
  }
}
