package dev.derive.coordinator.validate;

/**
 * The syntax of a media type as an HTTP {@code Content-Type} value, RFC 9110 section 8.3.1:
 *
 * <pre>
 * media-type = type "/" subtype parameters
 * parameters = *( OWS ";" OWS [ parameter ] )
 * parameter  = parameter-name "=" parameter-value
 * parameter-value = ( token / quoted-string )
 * </pre>
 *
 * with {@code type}, {@code subtype} and {@code parameter-name} tokens (section 5.6.2), OWS spaces
 * or tabs (section 5.6.3) and quoted-string as in section 5.6.4. Only ASCII is accepted: the
 * obsolete {@code obs-text} octets of a quoted string have no single meaning in a header.
 */
public final class MediaTypeSyntax {
  private MediaTypeSyntax() {}

  /** Whether {@code value} is a well-formed media type, parameters included. */
  public static boolean isValid(String value) {
    Cursor at = new Cursor(value);
    if (!at.token() || !at.take('/') || !at.token()) {
      return false;
    }
    while (!at.atEnd()) {
      at.whitespace();
      if (!at.take(';')) {
        return false;
      }
      at.whitespace();
      if (at.atEnd() || at.peek() == ';') {
        continue; // an empty parameter, which the grammar allows
      }
      if (!at.token() || !at.take('=') || !(at.token() || at.quotedString())) {
        return false;
      }
    }
    return true;
  }

  /** tchar, RFC 9110 section 5.6.2. */
  static boolean isTokenChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }

  private static final class Cursor {
    private final String text;
    private int index;

    Cursor(String text) {
      this.text = text;
    }

    boolean atEnd() {
      return index >= text.length();
    }

    char peek() {
      return text.charAt(index);
    }

    boolean take(char c) {
      if (!atEnd() && peek() == c) {
        index++;
        return true;
      }
      return false;
    }

    void whitespace() {
      while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
        index++;
      }
    }

    boolean token() {
      int start = index;
      while (!atEnd() && isTokenChar(peek())) {
        index++;
      }
      return index > start;
    }

    /** quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE, ASCII only. */
    boolean quotedString() {
      if (!take('"')) {
        return false;
      }
      while (!atEnd()) {
        char c = text.charAt(index++);
        if (c == '"') {
          return true;
        }
        if (c == '\\') {
          if (atEnd()) {
            return false;
          }
          c = text.charAt(index++);
          if (!(c == '\t' || (c >= 0x20 && c <= 0x7E))) {
            return false;
          }
        } else if (!(c == '\t' || c == ' ' || c == 0x21 || (c >= 0x23 && c <= 0x7E))) {
          return false;
        }
      }
      return false;
    }
  }
}
