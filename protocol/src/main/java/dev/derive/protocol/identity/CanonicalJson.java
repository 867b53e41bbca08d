package dev.derive.protocol.identity;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A strict canonical JSON encoding, after RFC 8785 (JCS) for the values Derive fingerprints: object
 * members sorted by name (UTF-16 code units, as JCS sorts), no insignificant white space, strings
 * escaped minimally, and numbers written in their shortest exact decimal form with integral values
 * written as integers ({@code 256}, {@code 256.0} and {@code 2.56e2} all become {@code 256}).
 * Unlike JCS it writes numbers from their exact decimal value rather than from an IEEE 754 double,
 * so no two different decimals collide.
 */
public final class CanonicalJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

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
          String name = it.next();
          if (!node.get(name).isNull()) {
            names.add(name);
          }
        }
        names.sort(String::compareTo);
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
      case NUMBER -> out.append(canonicalNumber(node.decimalValue()));
      case BOOLEAN -> out.append(node.booleanValue());
      case NULL, MISSING -> out.append("null");
      default -> throw new IllegalArgumentException("cannot canonicalise " + node.getNodeType());
    }
  }

  /** The shortest exact decimal form of {@code value}: no exponent, no trailing zeros. */
  static String canonicalNumber(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    if (stripped.signum() == 0) {
      return "0";
    }
    return stripped.scale() <= 0
        ? stripped.toBigIntegerExact().toString()
        : stripped.toPlainString();
  }

  private static void writeString(String value, StringBuilder out) {
    out.append('"');
    out.append(JsonStringEncoder.getInstance().quoteAsString(value));
    out.append('"');
  }
}
