package dev.derive.coordinator.config;

import java.time.Duration;
import org.eclipse.microprofile.config.spi.Converter;

/**
 * The converters of whole-number settings: a value that is not of its kind is refused when the
 * function starts, and the configuration names the variable in its message.
 */
public final class Seconds {
  private Seconds() {}

  /** A positive whole number of seconds. */
  public static final class Positive implements Converter<Duration> {
    @Override
    public Duration convert(String value) {
      return Duration.ofSeconds(number(value, 1, "a positive whole number of seconds"));
    }
  }

  /** Zero or a positive whole number of seconds. */
  public static final class NonNegative implements Converter<Duration> {
    @Override
    public Duration convert(String value) {
      return Duration.ofSeconds(number(value, 0, "a non-negative whole number of seconds"));
    }
  }

  /** A positive whole number (bytes). */
  public static final class PositiveNumber implements Converter<Long> {
    @Override
    public Long convert(String value) {
      return number(value, 1, "a positive whole number");
    }
  }

  /**
   * {@code value} as a number at least {@code least}.
   *
   * @throws IllegalArgumentException saying it must be {@code kind}
   */
  static long number(String value, long least, String kind) {
    try {
      long parsed = Long.parseLong(value.trim());
      if (parsed >= least) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("must be " + kind + ", got " + value);
  }
}
