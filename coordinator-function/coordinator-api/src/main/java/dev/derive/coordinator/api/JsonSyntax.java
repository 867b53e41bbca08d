package dev.derive.coordinator.api;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.ContentReference;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says in Derive's own words why a request body is not JSON it reads, where it can with the line
 * and column (counted from 1): "the body ends before the array opened at line 1, column 12 is
 * closed", "unexpected character ';' at line 2, column 7". The parser's own sentence (Jackson's
 * "Unexpected end-of-input within/between Object entries", its class and feature names) never
 * reaches the answer; its words only pick which of these sentences applies.
 */
final class JsonSyntax {
  /** Jackson's "Unexpected character ('x' (code 120))": the character. */
  private static final Pattern UNEXPECTED_CHARACTER =
      Pattern.compile("^Unexpected character \\('(.{1,2})' \\(code \\d+");

  /** Jackson's "Unrecognized token 'xyz'": the token. */
  private static final Pattern UNRECOGNISED_TOKEN =
      Pattern.compile("^Unrecognized token '([^']*)'");

  /** The longest stretch of the body quoted back. */
  private static final int MAX_QUOTED = 40;

  private JsonSyntax() {}

  /** The sentence for {@code e}, a body that could not be read as one JSON value. */
  static String sentence(JsonProcessingException e) {
    String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    String at = at(e.getLocation());
    if (e instanceof JsonEOFException) {
      return "the body ends" + at + " before " + unclosed(e) + " is complete";
    }
    if (e instanceof StreamConstraintsException) {
      return constraint(message, e);
    }
    if (e instanceof MismatchedInputException) {
      return message.startsWith("No content to map")
          ? "the body is empty; it must be a JSON object"
          : "the body is not the JSON object a request is" + at;
    }
    Matcher character = UNEXPECTED_CHARACTER.matcher(message);
    if (character.find()) {
      String c = character.group(1);
      return "unexpected character " + (printable(c) ? "'" + c + "'" : "") + at;
    }
    Matcher token = UNRECOGNISED_TOKEN.matcher(message);
    if (token.find() && printable(token.group(1))) {
      return "unexpected word '"
          + quoted(token.group(1))
          + "'"
          + at
          + " (a string needs double quotes; true, false and null are written in lower case)";
    }
    if (message.startsWith("Illegal unquoted character")) {
      return "a control character (such as a line break or tab) inside a string"
          + at
          + " must be escaped (\\n, \\t, \\u0000 …)";
    }
    if (message.startsWith("Invalid UTF-8") || message.contains("UTF-8")) {
      return "the body is not valid UTF-8" + at;
    }
    return "the body is not well-formed JSON" + at;
  }

  /** What was open when the body ended: the innermost object or array, or the value itself. */
  private static String unclosed(JsonProcessingException e) {
    if (e.getProcessor() instanceof JsonParser parser) {
      JsonStreamContext context = parser.getParsingContext();
      if (context != null && (context.inArray() || context.inObject())) {
        String kind = context.inArray() ? "the array" : "the object";
        JsonLocation start = context.startLocation(ContentReference.unknown());
        String opened = at(start);
        return kind + (opened.isEmpty() ? "" : " opened" + opened);
      }
    }
    return "its JSON value (a string, an object or an array is not closed)";
  }

  /** A limit of the parser's: nesting depth, the length of a number, a string or a name. */
  private static String constraint(String message, JsonProcessingException e) {
    if (message.startsWith("Document nesting depth")) {
      return "the body nests objects and arrays more than "
          + maxDepth(e)
          + " levels deep; a request is a few levels deep";
    }
    if (message.startsWith("Number value length") || message.startsWith("Number length")) {
      return "a number in the body is longer than Derive reads";
    }
    if (message.startsWith("String value length") || message.startsWith("String length")) {
      return "a string in the body is longer than Derive reads";
    }
    if (message.startsWith("Name length") || message.startsWith("Name value length")) {
      return "a member name in the body is longer than Derive reads";
    }
    return "the body is larger or deeper than Derive reads";
  }

  private static int maxDepth(JsonProcessingException e) {
    return e.getProcessor() instanceof JsonParser parser
        ? parser.streamReadConstraints().getMaxNestingDepth()
        : com.fasterxml.jackson.core.StreamReadConstraints.defaults().getMaxNestingDepth();
  }

  /** {@code " at line L, column C"}, or nothing when the parser did not know where. */
  private static String at(JsonLocation location) {
    if (location == null || location.getLineNr() <= 0) {
      return "";
    }
    return " at line "
        + location.getLineNr()
        + (location.getColumnNr() > 0 ? ", column " + location.getColumnNr() : "");
  }

  private static boolean printable(String text) {
    return !text.isEmpty()
        && text.codePoints()
            .noneMatch(c -> Character.isISOControl(c) || Character.getType(c) == Character.FORMAT);
  }

  private static String quoted(String text) {
    return text.length() <= MAX_QUOTED ? text : text.substring(0, MAX_QUOTED) + "…";
  }
}
