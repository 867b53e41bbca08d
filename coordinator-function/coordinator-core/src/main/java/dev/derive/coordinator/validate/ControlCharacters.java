package dev.derive.coordinator.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Refuses control characters (Unicode general category Cc: C0 controls including tab, CR and LF,
 * DEL, and the C1 controls) in request bodies. Derive echoes request strings back (a file name in
 * an upload key, a content type in a presigned upload's headers, a value in an error detail); a CR
 * or LF there could split an HTTP header (RFC 9110 section 5.5 forbids CR, LF and NUL in field
 * values) or a log line, and no legitimate key, file name, media type or option needs one.
 */
public final class ControlCharacters {
  private ControlCharacters() {}

  /** Whether {@code text} holds a control character. */
  public static boolean anyIn(String text) {
    return text.codePoints().anyMatch(c -> Character.getType(c) == Character.CONTROL);
  }

  /**
   * One violation for each string value holding a control character, at its JSON pointer (RFC
   * 6901), and one for each object whose member names hold one, at the object (the name itself is
   * not echoed).
   */
  public static List<Violation> in(JsonNode body) {
    List<Violation> violations = new ArrayList<>();
    walk(body, "", violations);
    return violations;
  }

  private static void walk(JsonNode node, String pointer, List<Violation> violations) {
    if (node == null) {
      return;
    }
    if (node.isTextual()) {
      if (anyIn(node.textValue())) {
        violations.add(new Violation(pointer, "must not contain control characters"));
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        walk(node.get(i), pointer + "/" + i, violations);
      }
    } else if (node.isObject()) {
      boolean badName = false;
      for (Iterator<Map.Entry<String, JsonNode>> members = node.fields(); members.hasNext(); ) {
        Map.Entry<String, JsonNode> member = members.next();
        if (anyIn(member.getKey())) {
          badName = true;
        } else {
          walk(
              member.getValue(),
              pointer + "/" + RequestValidator.escape(member.getKey()),
              violations);
        }
      }
      if (badName) {
        violations.add(new Violation(pointer, "member names must not contain control characters"));
      }
    }
  }
}
