package dev.derive.coordinator.aws;

import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A DynamoDB condition expression with exactly the attribute names ({@code #…}) and values ({@code
 * :…}) it uses (DynamoDB refuses a request that declares one its expressions do not use), so
 * conditions compose without each write listing them again.
 */
record Condition(String text, Map<String, String> names, Map<String, AttributeValue> values) {
  Condition {
    names = Map.copyOf(names);
    values = Map.copyOf(values);
  }

  /** Both this and {@code other}. */
  Condition and(Condition other) {
    return join("AND", other);
  }

  /** This or {@code other}. */
  Condition or(Condition other) {
    return join("OR", other);
  }

  /** Not this. */
  Condition not() {
    return new Condition("NOT (" + text + ")", names, values);
  }

  /**
   * @throws IllegalStateException if the two give one placeholder different meanings
   */
  private Condition join(String operator, Condition other) {
    return new Condition(
        "(" + text + ") " + operator + " (" + other.text + ")",
        merged(names, other.names),
        merged(values, other.values));
  }

  private static <V> Map<String, V> merged(Map<String, V> a, Map<String, V> b) {
    Map<String, V> all = new HashMap<>(a);
    b.forEach(
        (key, value) -> {
          V before = all.putIfAbsent(key, value);
          if (before != null && !before.equals(value)) {
            throw new IllegalStateException(key + " is both " + before + " and " + value);
          }
        });
    return all;
  }
}
