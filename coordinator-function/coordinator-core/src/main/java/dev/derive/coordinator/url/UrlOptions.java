package dev.derive.coordinator.url;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.protocol.capability.CapabilityCatalogue;
import dev.derive.protocol.capability.CapabilityCatalogue.UrlOption;
import dev.derive.protocol.capability.CapabilityDescriptor.ImageUrlFormats;
import dev.derive.protocol.capability.ParameterDescriptor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The image URL options of a deployment and what each means in the {@code POST /v1/derivatives}
 * target. The grammar's own options are {@code f:} ({@code format}), {@code pr:} ({@code preset})
 * and {@code exp:} ({@code expires}); every other option comes from a capability declaration: a
 * target option's {@link UrlSpelling} ({@code q:} for {@code quality}) or an operation's {@link
 * dev.derive.protocol.capability.UrlShorthand} ({@code rs:<fit>:<width>:<height>:<enlarge>}), so a
 * new operation's URL option needs no code here. Format names ({@code f:webp}) and what {@code
 * f:auto} picks are declared too. The grammar is {@link ImageUrl}'s (docs/image-urls.md); values
 * are checked only for shape here, their ranges by the request validator the body then goes to.
 */
public final class UrlOptions {
  /** Canonical names of the grammar's own options. */
  static final String FORMAT = "format";

  static final String PRESET = "preset";
  static final String EXPIRES = "expires";
  static final String DPR = "dpr";

  /** What {@code dpr:} takes: a ratio of 1 to 4 with at most two decimals (imgproxy's). */
  private static final Pattern RATIO = Pattern.compile("[1-4](\\.[0-9]{1,2})?");

  /** The value of {@code f:} that asks for the best format the client accepts. */
  public static final String AUTO = "auto";

  private final Map<String, String> canonical;
  private final Map<String, UrlOption> declared;
  private final Map<String, String> formats;
  private final Optional<ImageUrlFormats> made;
  private final Set<String> scaledByDpr;

  private UrlOptions(CapabilityCatalogue capabilities) {
    Map<String, String> names = new LinkedHashMap<>();
    for (String spelling : List.of("f", FORMAT, "ext")) {
      names.put(spelling, FORMAT);
    }
    names.put("pr", PRESET);
    names.put(PRESET, PRESET);
    names.put("exp", EXPIRES);
    names.put(EXPIRES, EXPIRES);
    names.put(DPR, DPR);
    Map<String, UrlOption> options = new LinkedHashMap<>();
    capabilities
        .urlOptions()
        .forEach(
            (name, option) -> {
              names.put(name, option.name());
              options.put(option.name(), option);
            });
    this.canonical = Map.copyOf(names);
    this.declared = Map.copyOf(options);
    this.formats = capabilities.formatNames();
    this.made = capabilities.imageUrls();
    this.scaledByDpr =
        capabilities.targetOptions().stream()
            .filter(p -> p.url() != null && p.url().scaledByDpr())
            .map(ParameterDescriptor::name)
            .collect(Collectors.toUnmodifiableSet());
  }

  /** The options of the image URLs of {@code capabilities}. */
  public static UrlOptions of(CapabilityCatalogue capabilities) {
    return new UrlOptions(capabilities);
  }

  /**
   * The canonical name of the option called {@code name} ({@code q} is {@code quality}), if any.
   */
  Optional<String> canonical(String name) {
    return Optional.ofNullable(canonical.get(name));
  }

  /**
   * What {@code f:auto} stands for, given the request's {@code Accept} header ({@code null} when
   * absent): the first of the declared automatic formats it names ({@link FormatNegotiation}), else
   * the default format.
   */
  public String pick(String accept) {
    return made.map(m -> FormatNegotiation.pick(accept, m.autoFormats(), m.defaultFormat()))
        .orElse(null);
  }

  /**
   * What a URL makes when neither it nor its preset names a format.
   *
   * @throws InvalidRequestException if no deployed capability declares it
   */
  String defaultFormat() {
    return made.map(ImageUrlFormats::defaultFormat)
        .orElseThrow(
            () ->
                ImageUrl.invalid(
                    "/url/format", "this deployment has no default format for image URLs"));
  }

  /**
   * Sets option {@code name} (canonical) of an image URL, with its arguments {@code args}, on the
   * request {@code target}; {@code auto} is the media type {@code f:auto} stands for.
   *
   * @throws InvalidRequestException for wrong arguments
   */
  void apply(String name, List<String> args, ObjectNode target, String auto) {
    switch (name) {
      case FORMAT -> {
        arity(name, args, 1);
        String format = args.get(0).toLowerCase(Locale.ROOT);
        String mediaType = format.equals(AUTO) ? auto : formats.get(format);
        if (mediaType == null) {
          throw ImageUrl.invalid(
              "/url/format", "unknown format; use one of " + formats.keySet() + " or auto");
        }
        target.put("mediaType", mediaType);
      }
      case PRESET -> arity(name, args, 2); // name, and the digest ImageUrl checks
      case EXPIRES -> arity(name, args, 1);
      case DPR -> ratio(args); // applied last, by scaleByDpr, whatever the options' order
      default -> {
        UrlOption option = declared.get(name);
        if (option == null) {
          throw new IllegalStateException("option without a meaning: " + name);
        }
        List<String> arguments =
            option.shorthand() == null
                ? List.of(option.option().name())
                : option.shorthand().arguments();
        arity(name, args, arguments.size());
        for (int i = 0; i < args.size(); i++) {
          UrlArgument.set(option.operation(), arguments.get(i), args.get(i), target);
        }
      }
    }
  }

  /**
   * Multiplies the whole-number target options declared {@code scaledByDpr} (the resize box, the
   * padding) by the URL's {@code dpr:} arguments {@code args}, rounded, as imgproxy does: {@code
   * dpr:2/w:100} asks for what {@code w:200} does and shares its fingerprint. The request validator
   * then checks the products against the declared bounds.
   *
   * @throws InvalidRequestException for a ratio that is not 1 to 4
   */
  void scaleByDpr(List<String> args, ObjectNode target) {
    double ratio = ratio(args);
    for (String name : scaledByDpr) {
      JsonNode value = target.get(name);
      if (value != null && value.isIntegralNumber()) {
        target.put(name, Math.round(value.longValue() * ratio));
      }
    }
  }

  /**
   * The device pixel ratio a client hint header's {@code value} ({@code Sec-CH-DPR} or {@code DPR},
   * a decimal number; {@code null} when absent) stands for in an image URL without {@code dpr:}:
   * rounded up to a multiple of 0.5 and at most 4, so one signed URL makes at most seven
   * derivatives whatever devices ask for it (a hint is the client's, not signed); empty for none,
   * for a ratio of 1 or less (nothing to scale) and for a value that is not a number (a hint is
   * advice: a malformed one is ignored, not refused).
   */
  public static Optional<String> clientHintDpr(String value) {
    if (value == null || !value.trim().matches("[0-9]{1,3}(\\.[0-9]{1,6})?")) {
      return Optional.empty();
    }
    double ratio = Math.min(4, Math.ceil(Double.parseDouble(value.trim()) * 2) / 2);
    if (ratio <= 1) {
      return Optional.empty();
    }
    return Optional.of(
        ratio == Math.rint(ratio) ? Long.toString((long) ratio) : Double.toString(ratio));
  }

  private static double ratio(List<String> args) {
    arity(DPR, args, 1);
    String ratio = args.get(0);
    if (!RATIO.matcher(ratio).matches() || Double.parseDouble(ratio) > 4) {
      throw ImageUrl.invalid(
          "/url/" + DPR, "dpr takes a device pixel ratio from 1 to 4, e.g. 2 or 1.5");
    }
    return Double.parseDouble(ratio);
  }

  private static void arity(String name, List<String> args, int max) {
    if (args.isEmpty() || args.size() > max) {
      throw ImageUrl.invalid(
          "/url/" + name,
          name
              + " takes "
              + (max == 1 ? "1" : "1 to " + max)
              + " argument"
              + (max == 1 ? "" : "s")
              + ", got "
              + args.size());
    }
  }
}
