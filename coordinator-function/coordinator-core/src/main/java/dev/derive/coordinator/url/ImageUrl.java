package dev.derive.coordinator.url;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.preset.Preset;
import dev.derive.coordinator.preset.Presets;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.Violation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An image URL's path, {@code /<signature>/<option>/…/<source key>}, in the style of imgproxy, and
 * the {@code POST /v1/derivatives} body it stands for. The grammar (docs/image-urls.md):
 *
 * <ul>
 *   <li>options are segments {@code name:arg[:arg…]}: the grammar's own {@code f:<format|auto>}
 *       ({@code format}), {@code pr:<preset>:<digest>} ({@code preset}, {@link
 *       #requirePresetInForce}), {@code exp:<unix seconds>} ({@code expires}) and {@code
 *       dpr:<ratio>} (sizes declared {@code scaledByDpr} multiplied by it), and those the deployed
 *       capabilities declare ({@link UrlOptions}: with the image and pdf capabilities {@code
 *       rs:<fit>:<width>:<height>[:<enlarge>]}, {@code s:}, {@code w:}, {@code h:}, {@code rt:},
 *       {@code el:}, {@code q:}, {@code bg:}, {@code pg:}, {@code dpi:}, {@code wm:}, {@code
 *       wmu:}); a width or height of 0 means "not given", as in imgproxy; a parameter naming
 *       another object of the source bucket ({@code wmu:}, the watermark) takes its key
 *       base64url-encoded, since a key holds {@code /};
 *   <li>the source key is the rest of the path, as the function received it (API Gateway decodes
 *       percent escapes before it invokes); it starts at the first segment that is not shaped like
 *       an option ({@code name:…}, the name lower-case letters, digits and {@code _}), or after a
 *       {@code plain} segment (for a key whose first segment looks like an option); an option of
 *       that shape that no capability declares is refused, not read as the key;
 *   <li>fit modes are the JSON API's (sharp's), plus imgproxy's {@code fit} (= {@code inside}) and
 *       {@code force} (= {@code fill}), as the image declaration spells them; imgproxy's {@code
 *       fill} would mean {@code cover}, so it is read as the JSON API's {@code fill} (stretch) and
 *       the difference is documented;
 *   <li>without {@code f:} the target is the preset's media type, else the declared default.
 * </ul>
 *
 * <p>This record parses and verifies the URL; what each option sets in the target is {@link
 * UrlOptions}'s part.
 *
 * @param signature the first segment, as sent
 * @param signedPath what the signature covers: the path after the signature segment, exactly as
 *     received
 * @param options each option by canonical name with its arguments, in URL order
 * @param key the source object key, as received (decoded once by API Gateway)
 * @param grammar the options the URL was read with, which give each its meaning
 */
public record ImageUrl(
    String signature,
    String signedPath,
    Map<String, List<String>> options,
    String key,
    UrlOptions grammar) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A segment that is an option, known or not: a name of lower-case ASCII letters, digits and
   * {@code _} starting with a letter, then a colon (imgproxy reads every segment with a colon
   * before the source as an option). The first segment not of this shape starts the source key, so
   * {@code 2024:05/x.jpg} is a key and {@code zz:1/x.jpg} an unknown option.
   */
  private static final Pattern OPTION_SHAPED = Pattern.compile("([a-z][a-z0-9_]*):");

  /**
   * Splits {@code path}, the request path after {@code /v1} as API Gateway hands it to the
   * function: percent-decoded once (an HTTP API decodes {@code rawPath}), and otherwise exactly as
   * sent ({@code //}, dot segments and {@code ;} kept).
   *
   * @throws InvalidRequestException if it has no signature, no key, an unknown option, or an option
   *     named twice
   */
  public static ImageUrl parse(String path, UrlOptions grammar) {
    String[] segments = path.startsWith("/") ? path.substring(1).split("/", -1) : new String[0];
    if (segments.length < 2 || segments[0].isEmpty()) {
      throw notAnImageUrl();
    }
    String signature = segments[0];
    String signedPath = path.substring(1 + signature.length());
    Map<String, List<String>> options = new LinkedHashMap<>();
    int i = 1;
    for (; i < segments.length; i++) {
      String segment = segments[i];
      if (segment.equals("plain")) {
        i++;
        break;
      }
      Matcher shaped = OPTION_SHAPED.matcher(segment);
      if (!shaped.lookingAt()) {
        break;
      }
      String spelt = shaped.group(1);
      String name =
          grammar
              .canonical(spelt)
              .orElseThrow(
                  () ->
                      invalid(
                          "/url/" + spelt,
                          "unknown option "
                              + spelt
                              + " (GET /v1/capabilities lists the options); a source key whose"
                              + " first segment looks like an option, name:..., follows plain/"));
      int colon = spelt.length();
      List<String> args = List.of(segment.substring(colon + 1).split(":", -1));
      if (options.put(name, args) != null) {
        throw invalid("/url/" + name, "option " + name + " is given twice");
      }
    }
    if (i >= segments.length) {
      throw invalid("/source/key", "the image URL names no source key after its options");
    }
    String key = String.join("/", List.of(segments).subList(i, segments.length));
    return new ImageUrl(signature, signedPath, options, key, grammar);
  }

  /** The refusal of a path that is not {@code /v1/<signature>/<options>/<source key>}. */
  public static InvalidRequestException notAnImageUrl() {
    return invalid("", "an image URL is /v1/<signature>/<options>/<source key>");
  }

  /**
   * The image URL {@code path} (after {@code /v1}, as {@link #parse} takes it) once it is known
   * that it may be served: its signature verifies under one of {@code keys} and its {@code exp:}
   * time, if any, is not before {@code nowEpochSecond}. The signature is checked before anything
   * else: an unsigned or wrongly signed path is refused whatever it holds, and nothing of it is
   * parsed.
   *
   * @throws ForbiddenUrlException if it may not be served
   * @throws InvalidRequestException if it is signed but not a valid image URL
   */
  public static ImageUrl verified(
      String path, UrlOptions grammar, UrlSigningKeys keys, long nowEpochSecond) {
    if (keys.isEmpty()) {
      throw new ForbiddenUrlException(
          ForbiddenUrlException.INVALID_SIGNATURE,
          "this deployment has no URL signing key: no image URL is served");
    }
    int slash = path.indexOf('/', 1);
    boolean signed =
        path.startsWith("/")
            && slash > 1
            && keys.verifies(path.substring(1, slash), path.substring(slash));
    if (!signed) {
      throw new ForbiddenUrlException(
          ForbiddenUrlException.INVALID_SIGNATURE,
          "the URL's signature does not match its path (HMAC-SHA256, base64url; docs/image-urls.md)");
    }
    ImageUrl url = parse(path, grammar);
    Long expires = url.expires();
    if (expires != null && nowEpochSecond > expires) {
      throw new ForbiddenUrlException(
          ForbiddenUrlException.EXPIRED,
          "the URL expired at " + java.time.Instant.ofEpochSecond(expires));
    }
    return url;
  }

  /**
   * Checks that the preset the URL names, if any, is the one it was signed for: {@code
   * pr:<name>:<digest>} must give the {@link Preset#digest} of the preset's definition in force, so
   * a URL signed for a preset is not served once the preset means something else.
   *
   * @throws InvalidRequestException if the preset is unknown or its digest is not given
   * @throws ForbiddenUrlException if the preset has changed since (another digest)
   */
  public void requirePresetInForce(Presets presets) {
    List<String> preset = options.get(UrlOptions.PRESET);
    if (preset == null) {
      return;
    }
    Preset named = presets.require(preset.get(0), "/url/preset");
    if (preset.size() != 2 || preset.get(1).isEmpty()) {
      throw invalid(
          "/url/preset",
          "name the preset's version too, pr:"
              + named.name()
              + ":<digest>, with the digest GET /v1/presets lists for it");
    }
    if (!preset.get(1).equals(named.digest())) {
      throw new ForbiddenUrlException(
          ForbiddenUrlException.PRESET_CHANGED,
          "preset "
              + named.name()
              + " has changed since this URL was signed; sign a new URL with its current digest"
              + " (GET /v1/presets)");
    }
  }

  /**
   * When the URL stops being accepted, in Unix seconds, or {@code null} when it does not expire.
   */
  public Long expires() {
    List<String> args = options.get(UrlOptions.EXPIRES);
    if (args == null) {
      return null;
    }
    try {
      return Long.parseLong(args.get(0));
    } catch (NumberFormatException e) {
      throw invalid("/url/expires", "exp takes Unix seconds");
    }
  }

  /** Whether {@code f:auto} asks for the format to follow the {@code Accept} header. */
  public boolean autoFormat() {
    List<String> format = options.get(UrlOptions.FORMAT);
    return format != null && format.get(0).equalsIgnoreCase(UrlOptions.AUTO);
  }

  /**
   * The {@code POST /v1/derivatives} body this URL stands for: {@code source.key} and either the
   * preset's {@code steps}, or a {@code target} made of the preset's target (if any) with each
   * option of the URL set over it. The body still goes to the request validator, which checks every
   * value as for JSON.
   *
   * @param autoMediaType the media type {@code f:auto} stands for (from {@link UrlOptions#pick})
   * @throws InvalidRequestException for an option with wrong arguments, an unknown preset, or a
   *     steps preset with other options
   */
  public ObjectNode requestBody(Presets presets, String autoMediaType) {
    return requestBody(presets, autoMediaType, Optional.empty());
  }

  /** Whether the URL names its own {@code dpr:}, which the client hints then do not override. */
  public boolean namesDpr() {
    return options.containsKey(UrlOptions.DPR);
  }

  /**
   * {@link #requestBody(Presets, String)} with the device pixel ratio {@code hintedDpr} (from the
   * client hints, {@link UrlOptions#clientHintDpr}) standing for a {@code dpr:} the URL does not
   * name.
   */
  public ObjectNode requestBody(Presets presets, String autoMediaType, Optional<String> hintedDpr) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("source").put("key", key);
    ObjectNode target = JSON.createObjectNode();
    List<String> preset = options.get(UrlOptions.PRESET);
    if (preset != null) {
      Preset named = presets.require(preset.get(0), "/url/preset");
      if (named.target() == null) {
        if (options.keySet().stream()
            .anyMatch(o -> !o.equals(UrlOptions.PRESET) && !o.equals(UrlOptions.EXPIRES))) {
          throw invalid(
              "/url/preset", "preset " + named.name() + " gives steps: it takes no other options");
        }
        body.set("steps", named.steps());
        return body;
      }
      target = named.target();
    }
    if (!target.has("mediaType")) {
      target.put("mediaType", grammar.defaultFormat());
    }
    for (Map.Entry<String, List<String>> option : options.entrySet()) {
      grammar.apply(option.getKey(), option.getValue(), target, autoMediaType);
    }
    if (options.containsKey(UrlOptions.DPR)) {
      grammar.scaleByDpr(options.get(UrlOptions.DPR), target);
    } else if (hintedDpr.isPresent()) {
      grammar.scaleByDpr(List.of(hintedDpr.get()), target);
    }
    body.set("target", target);
    return body;
  }

  /** The refusal of an image URL: one violation at {@code pointer} ({@code /url/<option>}). */
  static InvalidRequestException invalid(String pointer, String detail) {
    return new InvalidRequestException(List.of(new Violation(pointer, detail)));
  }
}
