package dev.derive.protocol.capability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A set of capability declarations taken together (those a coordinator dispatches to), and what the
 * API derives from them rather than from a list of its own: the request's target options, the
 * limits in force, the built-in presets, and the image URL options and formats. Building it checks
 * the rules the declarations share (docs/capability-declarations.md): operations of two
 * capabilities that consume one target option accept the same values, a limit has one value, an
 * image URL option name, a format name and a preset name each mean one thing, and one capability at
 * most says what image URLs make.
 *
 * @param capabilities the declarations, in the order given (by name, as {@link
 *     CapabilityDeclarations} loads them)
 */
public record CapabilityCatalogue(List<CapabilityDescriptor> capabilities) {
  /**
   * Image URL option names that are the URL grammar's own, not any capability's: {@code f:}
   * (format), {@code pr:} (preset), {@code exp:} (expiry) and the {@code plain} separator.
   */
  public static final Set<String> URL_GRAMMAR_NAMES =
      Set.of("f", "format", "ext", "pr", "preset", "exp", "expires", "plain");

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * @throws InvalidDeclarationException if the declarations break a rule they share
   */
  public CapabilityCatalogue {
    capabilities = List.copyOf(capabilities);
    targetOptions(capabilities);
    limits(capabilities);
    urlOptionNames(capabilities);
    formatNames(capabilities);
    presets(capabilities);
    imageUrls(capabilities);
  }

  /** Returns the capability called {@code name}, if the catalogue has it. */
  public Optional<CapabilityDescriptor> named(String name) {
    return capabilities.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /**
   * The options a request's {@code target} may give besides {@code mediaType}: every parameter an
   * operation {@linkplain OperationDescriptor#consumes() consumes}, without its default, in
   * declaration order.
   */
  public List<ParameterDescriptor> targetOptions() {
    return targetOptions(capabilities);
  }

  /** The limits the declarations name (e.g. {@code maxDimension}), in declaration order. */
  public Map<String, Integer> limits() {
    return limits(capabilities);
  }

  /** The presets the declarations contribute, in declaration order (a presets document). */
  public ObjectNode presets() {
    return presets(capabilities);
  }

  /** The media type each image URL format name ({@code f:<name>}) stands for. */
  public Map<String, String> formatNames() {
    return formatNames(capabilities);
  }

  /** What image URLs make, if a capability declares it. */
  public Optional<CapabilityDescriptor.ImageUrlFormats> imageUrls() {
    return imageUrls(capabilities);
  }

  /**
   * Each image URL option name of the declarations, with the target option ({@link UrlSpelling}) or
   * the operation's shorthand ({@link UrlShorthand}) it stands for.
   */
  public Map<String, UrlOption> urlOptions() {
    return urlOptionNames(capabilities);
  }

  /**
   * One image URL option a declaration gives: either one target option ({@code shorthand} null) or
   * an operation's shorthand over several.
   *
   * @param name the option's canonical (longest) name, used in messages ({@code /url/<name>})
   * @param option the target option it sets, when it sets one
   * @param shorthand the shorthand, when it sets several
   * @param operation the consuming operation, whose parameter defaults a negated boolean compares
   *     with
   */
  public record UrlOption(
      String name,
      ParameterDescriptor option,
      UrlShorthand shorthand,
      OperationDescriptor operation) {}

  private static List<ParameterDescriptor> targetOptions(List<CapabilityDescriptor> capabilities) {
    Map<String, ParameterDescriptor> options = new LinkedHashMap<>();
    Map<String, String> firstConsumer = new LinkedHashMap<>();
    for (CapabilityDescriptor capability : capabilities) {
      for (OperationDescriptor operation : capability.operations()) {
        for (String name : operation.consumes()) {
          ParameterDescriptor parameter = operation.parameter(name).orElseThrow();
          String consumer = capability.name() + "." + operation.name();
          ParameterDescriptor known = options.putIfAbsent(name, parameter.asTargetOption());
          if (known != null && !known.acceptsTheSameAs(parameter)) {
            throw new InvalidDeclarationException(
                consumer,
                "consumes the target option "
                    + name
                    + " but accepts other values than "
                    + firstConsumer.get(name)
                    + ", which consumes it too; a target option means one thing");
          }
          firstConsumer.putIfAbsent(name, consumer);
        }
      }
    }
    return List.copyOf(options.values());
  }

  private static Map<String, Integer> limits(List<CapabilityDescriptor> capabilities) {
    Map<String, Integer> limits = new LinkedHashMap<>();
    for (CapabilityDescriptor capability : capabilities) {
      capability
          .limits()
          .forEach(
              (name, value) -> {
                Integer known = limits.putIfAbsent(name, value);
                if (known != null && !known.equals(value)) {
                  throw new InvalidDeclarationException(
                      capability.name(),
                      "declares the limit "
                          + name
                          + " = "
                          + value
                          + " but another capability declares it "
                          + known);
                }
              });
    }
    return java.util.Collections.unmodifiableMap(limits);
  }

  private static Map<String, UrlOption> urlOptionNames(List<CapabilityDescriptor> capabilities) {
    Map<String, UrlOption> names = new LinkedHashMap<>();
    Map<String, ParameterDescriptor> options = new LinkedHashMap<>();
    targetOptions(capabilities).forEach(o -> options.put(o.name(), o));
    for (CapabilityDescriptor capability : capabilities) {
      for (OperationDescriptor operation : capability.operations()) {
        for (String consumed : operation.consumes()) {
          ParameterDescriptor parameter = operation.parameter(consumed).orElseThrow();
          if (parameter.url() != null && !parameter.url().names().isEmpty()) {
            List<String> spelled = parameter.url().names();
            UrlOption option =
                new UrlOption(spelled.getLast(), options.get(consumed), null, operation);
            spelled.forEach(n -> claim(names, n, option, capability));
          }
        }
        for (UrlShorthand shorthand : operation.urlShorthands()) {
          UrlOption option = new UrlOption(shorthand.names().getLast(), null, shorthand, operation);
          shorthand.names().forEach(n -> claim(names, n, option, capability));
        }
      }
    }
    return java.util.Collections.unmodifiableMap(names);
  }

  private static void claim(
      Map<String, UrlOption> names, String name, UrlOption option, CapabilityDescriptor by) {
    if (URL_GRAMMAR_NAMES.contains(name)) {
      throw new InvalidDeclarationException(
          by.name(), "the image URL option name " + name + " is the URL grammar's own");
    }
    UrlOption known = names.putIfAbsent(name, option);
    boolean sameOption =
        known != null
            && known.option() != null
            && known.option().equals(option.option())
            && known.name().equals(option.name());
    if (known != null && !known.equals(option) && !sameOption) {
      throw new InvalidDeclarationException(
          by.name(), "the image URL option name " + name + " is declared twice");
    }
  }

  private static Map<String, String> formatNames(List<CapabilityDescriptor> capabilities) {
    Map<String, String> names = new LinkedHashMap<>();
    for (CapabilityDescriptor capability : capabilities) {
      for (CapabilityDescriptor.Format format : capability.formats()) {
        for (String name : format.names()) {
          String known = names.putIfAbsent(name, format.mediaType());
          if (known != null && !known.equals(format.mediaType())) {
            throw new InvalidDeclarationException(
                capability.name(),
                "the format name " + name + " stands for " + known + " in another declaration");
          }
        }
      }
    }
    return java.util.Collections.unmodifiableMap(names);
  }

  private static ObjectNode presets(List<CapabilityDescriptor> capabilities) {
    ObjectNode presets = JSON.createObjectNode();
    for (CapabilityDescriptor capability : capabilities) {
      for (Map.Entry<String, JsonNode> preset : capability.presets().properties()) {
        if (presets.has(preset.getKey())) {
          throw new InvalidDeclarationException(
              capability.name(), "the preset " + preset.getKey() + " is declared twice");
        }
        presets.set(preset.getKey(), preset.getValue().deepCopy());
      }
    }
    return presets;
  }

  private static Optional<CapabilityDescriptor.ImageUrlFormats> imageUrls(
      List<CapabilityDescriptor> capabilities) {
    List<CapabilityDescriptor> serving =
        capabilities.stream().filter(c -> c.imageUrls() != null).toList();
    if (serving.size() > 1) {
      throw new InvalidDeclarationException(
          serving.get(1).name(),
          "declares imageUrls, as "
              + serving.getFirst().name()
              + " does: one capability says what image URLs make");
    }
    return serving.stream().map(CapabilityDescriptor::imageUrls).findFirst();
  }

  /** The capabilities' names, in order. */
  public List<String> names() {
    return capabilities.stream().map(CapabilityDescriptor::name).toList();
  }
}
