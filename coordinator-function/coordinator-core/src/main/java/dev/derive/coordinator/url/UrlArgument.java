package dev.derive.coordinator.url;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import dev.derive.protocol.capability.UrlSpelling;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One argument of a declared image URL option read into the request target's parameter it spells,
 * by the parameter's declared type and {@link UrlSpelling}: whole numbers, {@code 1}/{@code 0}
 * flags (negated where declared), allowed values and their aliases, prefixes, and a source object's
 * base64url key. Errors point at {@code /url/<option>} ({@link UrlOptions} checks the number of
 * arguments).
 */
final class UrlArgument {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> TRUE = Set.of("1", "t", "true");
  private static final Set<String> FALSE = Set.of("0", "f", "false");

  private UrlArgument() {}

  /** Sets the target option {@code name}, consumed by {@code operation}, from one argument. */
  static void set(OperationDescriptor operation, String name, String value, ObjectNode target) {
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
}
