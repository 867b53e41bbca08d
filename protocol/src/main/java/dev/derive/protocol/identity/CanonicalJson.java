package dev.derive.protocol.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The JSON Canonicalization Scheme, RFC 8785 (JCS): object members sorted by name as arrays of
 * UTF-16 code units, no insignificant white space, strings escaped as ECMAScript's {@code
 * JSON.stringify} does (section 3.2.2.2), and numbers written as ECMAScript's {@code
 * Number.prototype.toString} writes the IEEE 754 double nearest to them (section 3.2.2.3: {@code
 * 256.0} and {@code 2.56e2} are {@code 256}, {@code 1e21} is {@code 1e+21}, {@code -0} is {@code
 * 0}). Checked against the RFC's and its reference implementation's published vectors
 * (CanonicalJsonTest). Like JCS it expects I-JSON (RFC 7493): numbers beyond a double's precision
 * are written as the nearest double.
 */
public final class CanonicalJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private CanonicalJson() {}

  /** Encodes any Jackson-serialisable value (maps, lists, records, scalars) canonically. */
  public static String encode(Object value) {
    JsonNode node = value instanceof JsonNode n ? n : MAPPER.valueToTree(value);
    StringBuilder out = new StringBuilder();
    write(node, out);
    return out.toString();
  }

  private static void write(JsonNode node, StringBuilder out) {
    switch (node.getNodeType()) {
      case OBJECT -> {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
          names.add(it.next());
        }
        names.sort(String::compareTo); // UTF-16 code units, as RFC 8785 section 3.2.3 sorts
        out.append('{');
        for (int i = 0; i < names.size(); i++) {
          if (i > 0) {
            out.append(',');
          }
          writeString(names.get(i), out);
          out.append(':');
          write(node.get(names.get(i)), out);
        }
        out.append('}');
      }
      case ARRAY -> {
        out.append('[');
        for (int i = 0; i < node.size(); i++) {
          if (i > 0) {
            out.append(',');
          }
          write(node.get(i), out);
        }
        out.append(']');
      }
      case STRING -> writeString(node.textValue(), out);
      case NUMBER -> out.append(number(node.doubleValue()));
      case BOOLEAN -> out.append(node.booleanValue());
      case NULL, MISSING -> out.append("null");
      default -> throw new IllegalArgumentException("cannot canonicalise " + node.getNodeType());
    }
  }

  /**
   * {@code value} as ECMAScript's Number.prototype.toString writes it (ECMA-262 section 6.1.6.1.20,
   * RFC 8785 section 3.2.2.3): the shortest digits that round-trip (the JDK's {@link
   * Double#toString} finds the same ones since JDK 19), plain between 1e-7 and 1e21, else {@code
   * d.ddde+n}.
   *
   * @throws IllegalArgumentException for NaN and the infinities, which JSON cannot hold
   */
  static String number(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("JSON has no " + value);
    }
    if (value == 0) {
      return "0"; // -0 too
    }
    BigDecimal shortest = shortest(Math.abs(value));
    String digits = shortest.unscaledValue().abs().toString();
    int k = digits.length();
    int n = k - shortest.scale(); // value = 0.digits × 10^n
    StringBuilder out = new StringBuilder(value < 0 ? "-" : "");
    if (k <= n && n <= 21) {
      out.append(digits).append("0".repeat(n - k));
    } else if (0 < n && n <= 21) {
      out.append(digits, 0, n).append('.').append(digits, n, k);
    } else if (-6 < n && n <= 0) {
      out.append("0.").append("0".repeat(-n)).append(digits);
    } else {
      out.append(digits.charAt(0));
      if (k > 1) {
        out.append('.').append(digits, 1, k);
      }
      out.append('e').append(n - 1 >= 0 ? "+" : "-").append(Math.abs(n - 1));
    }
    return out.toString();
  }

  /**
   * The decimal with the fewest digits that reads back as {@code magnitude} (positive), the nearest
   * such if there are several. {@link Double#toString} gives the fewest digits except that it never
   * gives one alone ({@code 4.9E-324}, where ECMAScript writes {@code 5e-324}); then the one-digit
   * neighbours are tried.
   */
  private static BigDecimal shortest(double magnitude) {
    BigDecimal jdk = new BigDecimal(Double.toString(magnitude)).stripTrailingZeros();
    if (jdk.precision() != 2) {
      return jdk;
    }
    BigDecimal exact = new BigDecimal(magnitude);
    BigDecimal best = jdk;
    for (RoundingMode mode : List.of(RoundingMode.FLOOR, RoundingMode.CEILING)) {
      BigDecimal candidate = jdk.round(new MathContext(1, mode));
      if (Double.parseDouble(candidate.toString()) == magnitude
          && (best == jdk
              || candidate.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0)) {
        best = candidate;
      }
    }
    return best.stripTrailingZeros();
  }

  /** RFC 8785 section 3.2.2.2: only {@code "}, {@code \} and U+0000..U+001F are escaped. */
  private static void writeString(String value, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
