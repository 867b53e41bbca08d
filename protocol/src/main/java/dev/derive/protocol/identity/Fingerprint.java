package dev.derive.protocol.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The identity of a derivative or of an intermediate step output: SHA-256 (FIPS 180-4) over the
 * UTF-8 bytes of the {@link CanonicalJson} encoding of what determines its bytes. Written as 64
 * lower-case hex characters; it is the job id and the cache key.
 */
public final class Fingerprint {
  private static final Pattern FORM = Pattern.compile("[0-9a-f]{64}");

  private Fingerprint() {}

  /** Fingerprints {@code value} (any Jackson-serialisable value). */
  public static String of(Object value) {
    return sha256Hex(CanonicalJson.encode(value));
  }

  /** Returns whether {@code candidate} has the form of a fingerprint (64 lower-case hex). */
  public static boolean isWellFormed(String candidate) {
    return candidate != null && FORM.matcher(candidate).matches();
  }

  static String sha256Hex(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
