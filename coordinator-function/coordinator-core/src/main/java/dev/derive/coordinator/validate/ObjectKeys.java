package dev.derive.coordinator.validate;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The rules a source object key must follow. S3 allows any UTF-8 key of 1 to 1024 bytes (S3 user
 * guide, "Naming Amazon S3 objects"); Derive is stricter and also refuses control characters, a
 * leading {@code /} and {@code ..} segments, which S3 accepts but which are almost always a mistake
 * or a path-traversal attempt.
 */
public final class ObjectKeys {
  /** Longest key S3 accepts, in UTF-8 bytes. */
  public static final int MAX_KEY_BYTES = 1024;

  private ObjectKeys() {}

  /** Returns what is wrong with {@code key}, or empty when it is acceptable. */
  public static Optional<String> problem(String key) {
    if (key.isEmpty()) {
      return Optional.of("must not be empty");
    }
    if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
      return Optional.of("must be at most " + MAX_KEY_BYTES + " UTF-8 bytes");
    }
    if (key.codePoints().anyMatch(ObjectKeys::isControl)) {
      return Optional.of("must not contain control characters");
    }
    if (key.startsWith("/")) {
      return Optional.of("must not start with '/'");
    }
    for (String segment : key.split("/", -1)) {
      if (segment.equals("..")) {
        return Optional.of("must not contain '..' segments");
      }
    }
    return Optional.empty();
  }

  private static boolean isControl(int codePoint) {
    return Character.getType(codePoint) == Character.CONTROL;
  }
}
