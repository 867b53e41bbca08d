package dev.derive.protocol.capability;

import java.util.regex.Pattern;

/**
 * Whether a value is one a {@link ParameterDescriptor} allows: its type, bounds, step, allowed
 * values and pattern. The worker runtime checks each step's parameters with it, and a declaration's
 * own defaults are checked with it when it is read; the coordinator checks requests with the JSON
 * Schema generated from the same descriptors ({@link RequestSchema}).
 */
public final class ParameterValues {
  private ParameterValues() {}

  /**
   * What is wrong with {@code value} for {@code parameter}, as a sentence fragment ("must be
   * between 1 and 16384, got 0"), or {@code null} if it is allowed.
   */
  public static String problem(ParameterDescriptor parameter, Object value) {
    return switch (parameter.type()) {
      case ParameterDescriptor.INTEGER -> integerProblem(parameter, value);
      case ParameterDescriptor.BOOLEAN ->
          value instanceof Boolean ? null : "must be true or false, got " + shown(value);
      default -> stringProblem(parameter, value);
    };
  }

  /**
   * {@code value} as an {@code int} if it is a whole number in the range of one ({@code 256},
   * {@code 256L}, {@code 256.0}), else {@code null}.
   */
  public static Integer wholeNumber(Object value) {
    if (!(value instanceof Number number)) {
      return null;
    }
    double d = number.doubleValue();
    if (d != Math.rint(d) || d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) {
      return null;
    }
    return (int) d;
  }

  private static String integerProblem(ParameterDescriptor parameter, Object value) {
    Integer n = wholeNumber(value);
    if (n == null) {
      return "must be an integer, got " + shown(value);
    }
    Integer min = parameter.minimum();
    Integer max = parameter.maximum();
    if ((min != null && n < min) || (max != null && n > max)) {
      if (min != null && max != null) {
        return "must be between " + min + " and " + max + ", got " + n;
      }
      return min != null
          ? "must be at least " + min + ", got " + n
          : "must be at most " + max + ", got " + n;
    }
    if (parameter.multipleOf() != null && (n - min) % parameter.multipleOf() != 0) {
      return "must be "
          + min
          + " or more in steps of "
          + parameter.multipleOf()
          + (max == null ? "" : " up to " + max)
          + ", got "
          + n;
    }
    return null;
  }

  private static String stringProblem(ParameterDescriptor parameter, Object value) {
    if (!(value instanceof String text)) {
      return "must be a string, got " + shown(value);
    }
    if (!parameter.allowedValues().isEmpty() && !parameter.allowedValues().contains(text)) {
      return "must be one of " + String.join(", ", parameter.allowedValues()) + ", got " + text;
    }
    if (parameter.pattern() != null && !Pattern.matches(parameter.pattern(), text)) {
      return "must match " + parameter.pattern() + ", got " + text;
    }
    return null;
  }

  private static String shown(Object value) {
    return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
  }
}
