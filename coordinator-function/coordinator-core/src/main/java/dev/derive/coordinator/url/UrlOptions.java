package dev.derive.coordinator.url;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.protocol.capability.CapabilityCatalogue;
import dev.derive.protocol.capability.CapabilityCatalogue.UrlOption;
import dev.derive.protocol.capability.CapabilityDescriptor.ImageUrlFormats;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import dev.derive.protocol.capability.UrlSpelling;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
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

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> TRUE = Set.of("1", "t", "true");
  private static final Set<String> FALSE = Set.of("0", "f", "false");

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
          set(option.operation(), arguments.get(i), args.get(i), target);
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

  /** Sets the target option {@code name}, consumed by {@code operation}, from one argument. */
  private static void set(
      OperationDescriptor operation, String name, String value, ObjectNode target) {
    ParameterDescriptor parameter = operation.parameter(name).orElseThrow();
    UrlSpelling spelling =
        parameter.url() == null
            ? new UrlSpelling(List.of(), Map.of(), null, false, false, false)
            : parameter.url();
    String shown = spelling.names().isEmpty() ? name : spelling.names().getLast();
    if (spelling.zeroIsAbsent() && (value.isEmpty() || value.equals("0"))) {
      target.remove(name); // 0 = auto, as in imgproxy
      return;
    }
    if (value.isEmpty()) {
      return;
    }
    if (parameter.namesSourceObject()) {
      target.put(name, sourceObjectKey(shown, value));
      return;
    }
    switch (parameter.type()) {
      case ParameterDescriptor.INTEGER -> {
        if (!value.matches("[0-9]{1,9}")) {
          throw ImageUrl.invalid("/url/" + shown, shown + " takes a whole number");
        }
        target.set(name, JSON.getNodeFactory().numberNode(Integer.parseInt(value)));
      }
      case ParameterDescriptor.BOOLEAN -> {
        String v = value.toLowerCase(Locale.ROOT);
        if (!TRUE.contains(v) && !FALSE.contains(v)) {
          throw ImageUrl.invalid("/url/" + shown, shown + " takes 1 or 0");
        }
        boolean given = TRUE.contains(v) != spelling.negate();
        if (spelling.negate() && Boolean.valueOf(given).equals(parameter.defaultValue())) {
          target.remove(name); // the consuming operation's default: as if not given
        } else {
          target.put(name, given);
        }
      }
      default -> target.set(name, text(parameter, spelling, shown, value));
    }
  }

  /**
   * The key of another object of the source bucket (a parameter declared {@code sourceObject}, the
   * watermark) from its URL argument: base64url (RFC 4648 §5, padded or not) of the key's UTF-8
   * bytes, as imgproxy Pro's {@code watermark_url:} takes its URL, since a key holds {@code /},
   * which one URL segment cannot.
   *
   * @throws InvalidRequestException if {@code value} is not base64url of UTF-8 text
   */
  private static String sourceObjectKey(String shown, String value) {
    try {
      byte[] bytes = Base64.getUrlDecoder().decode(value);
      String key =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
      if (!key.isEmpty()) {
        return key;
      }
    } catch (IllegalArgumentException | CharacterCodingException notBase64Url) {
      // refused below
    }
    throw ImageUrl.invalid(
        "/url/" + shown,
        shown
            + " takes an object key of the source bucket encoded as base64url (RFC 4648 §5), e.g."
            + " bWFya3MvbG9nby5wbmc for marks/logo.png");
  }

  private static JsonNode text(
      ParameterDescriptor parameter, UrlSpelling spelling, String shown, String value) {
    if (parameter.allowedValues().isEmpty()) {
      return JSON.getNodeFactory()
          .textNode((spelling.prefix() == null ? "" : spelling.prefix()) + value);
    }
    String meant = spelling.aliases().get(value);
    if (meant == null && parameter.allowedValues().contains(value)) {
      meant = value;
    }
    if (meant == null) {
      List<String> known = new ArrayList<>(parameter.allowedValues());
      known.addAll(spelling.aliases().keySet());
      throw ImageUrl.invalid(
          "/url/" + shown, "unknown " + parameter.name() + "; use one of " + known);
    }
    return JSON.getNodeFactory().textNode(meant);
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
