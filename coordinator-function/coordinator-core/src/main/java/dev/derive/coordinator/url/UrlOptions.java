package dev.derive.coordinator.url;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.validate.InvalidRequestException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What each image URL option means in the {@code POST /v1/derivatives} target: the translation of
 * imgproxy-style arguments (fit names, 0 for "not given", {@code el:1}, format names) into the JSON
 * API's target fields. The grammar is {@link ImageUrl}'s (docs/image-urls.md); values are checked
 * only for shape here, their ranges by the request validator the body then goes to.
 */
final class UrlOptions {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Map<String, String> FORMATS =
      Map.of(
          "jpg", "image/jpeg",
          "jpeg", "image/jpeg",
          "png", "image/png",
          "webp", "image/webp",
          "avif", "image/avif",
          "gif", "image/gif",
          "pdf", "application/pdf",
          "txt", "text/plain");

  private static final Map<String, String> FITS =
      Map.of(
          "inside", "inside",
          "outside", "outside",
          "cover", "cover",
          "contain", "contain",
          "fill", "fill",
          "fit", "inside",
          "force", "fill");

  private static final Set<String> TRUE = Set.of("1", "t", "true");
  private static final Set<String> FALSE = Set.of("0", "f", "false");

  private UrlOptions() {}

  /**
   * Sets option {@code name} of an image URL, with its arguments {@code args}, on the request
   * {@code target}; {@code auto} is the media type {@code f:auto} stands for.
   *
   * @throws InvalidRequestException for wrong arguments
   */
  static void apply(String name, List<String> args, ObjectNode target, String auto) {
    switch (name) {
      case "resize" -> {
        arity(name, args, 1, 4);
        fit(args.get(0), target);
        if (args.size() > 1) {
          dimension("width", args.get(1), target);
        }
        if (args.size() > 2) {
          dimension("height", args.get(2), target);
        }
        if (args.size() > 3) {
          enlarge(args.get(3), target);
        }
      }
      case "size" -> {
        arity(name, args, 1, 3);
        dimension("width", args.get(0), target);
        if (args.size() > 1) {
          dimension("height", args.get(1), target);
        }
        if (args.size() > 2) {
          enlarge(args.get(2), target);
        }
      }
      case "width", "height" -> {
        arity(name, args, 1, 1);
        dimension(name, args.get(0), target);
      }
      case "resizing_type" -> {
        arity(name, args, 1, 1);
        fit(args.get(0), target);
      }
      case "enlarge" -> {
        arity(name, args, 1, 1);
        enlarge(args.get(0), target);
      }
      case "format" -> {
        arity(name, args, 1, 1);
        String format = args.get(0).toLowerCase(Locale.ROOT);
        String mediaType = format.equals(ImageUrl.AUTO) ? auto : FORMATS.get(format);
        if (mediaType == null) {
          throw ImageUrl.invalid(
              "/url/format", "unknown format; use one of " + FORMATS.keySet() + " or auto");
        }
        target.put("mediaType", mediaType);
      }
      case "quality", "page", "dpi" -> {
        arity(name, args, 1, 1);
        target.set(name, number(name, args.get(0)));
      }
      case "background" -> {
        arity(name, args, 1, 1);
        target.put("background", "#" + args.get(0));
      }
      case "preset" -> arity(name, args, 1, 2); // name, and the digest ImageUrl checks
      case "expires" -> arity(name, args, 1, 1);
      default -> throw new IllegalStateException("option without a meaning: " + name);
    }
  }

  private static void fit(String fit, ObjectNode target) {
    if (fit.isEmpty()) {
      return;
    }
    String mode = FITS.get(fit);
    if (mode == null) {
      throw ImageUrl.invalid("/url/resizing_type", "unknown fit; use one of " + FITS.keySet());
    }
    target.put("fit", mode);
  }

  private static void dimension(String name, String value, ObjectNode target) {
    if (value.isEmpty() || value.equals("0")) {
      target.remove(name); // 0 = auto, as in imgproxy
      return;
    }
    target.set(name, number(name, value));
  }

  private static void enlarge(String value, ObjectNode target) {
    String v = value.toLowerCase(Locale.ROOT);
    if (TRUE.contains(v)) {
      target.put("withoutEnlargement", false);
    } else if (FALSE.contains(v)) {
      target.remove("withoutEnlargement");
    } else {
      throw ImageUrl.invalid("/url/enlarge", "enlarge takes 1 or 0");
    }
  }

  private static JsonNode number(String name, String value) {
    if (!value.matches("[0-9]{1,9}")) {
      throw ImageUrl.invalid("/url/" + name, name + " takes a whole number");
    }
    return JSON.getNodeFactory().numberNode(Integer.parseInt(value));
  }

  private static void arity(String name, List<String> args, int min, int max) {
    if (args.size() < min || args.size() > max) {
      throw ImageUrl.invalid(
          "/url/" + name,
          name
              + " takes "
              + (min == max ? min : min + " to " + max)
              + " argument"
              + (max == 1 ? "" : "s")
              + ", got "
              + args.size());
    }
  }
}
