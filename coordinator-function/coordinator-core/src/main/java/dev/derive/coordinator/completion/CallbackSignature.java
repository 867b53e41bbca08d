package dev.derive.coordinator.completion;

import dev.derive.coordinator.url.UrlSigningKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

/**
 * The signature of a callback, in Stripe's webhook style ({@code docs/completion-events.md}):
 * header {@value #HEADER} {@code t=<unix seconds>,v1=<hex>} where {@code <hex>} is HMAC-SHA256 of
 * the UTF-8 bytes of {@code <t>.<body>} under the callback signing key. During a key rotation one
 * {@code v1} per key is sent, the new key's first; a receiver accepts the request when any {@code
 * v1} matches a key it knows and {@code t} is within its tolerance (Derive advises 300 s).
 */
public final class CallbackSignature {
  /** The request header holding the signature. */
  public static final String HEADER = "Derive-Signature";

  private CallbackSignature() {}

  /**
   * The header value signing {@code body} at {@code unixSeconds}.
   *
   * @throws IllegalStateException if {@code keys} is empty
   */
  public static String header(UrlSigningKeys keys, long unixSeconds, String body) {
    StringBuilder header = new StringBuilder("t=").append(unixSeconds);
    for (String signature : keys.hexSignatures(unixSeconds + "." + body)) {
      header.append(",v1=").append(signature);
    }
    return header.toString();
  }

  /**
   * What a receiver does: whether {@code header} signs {@code body} under {@code keys} with a
   * timestamp at most {@code toleranceSeconds} from {@code nowSeconds}. Malformed headers verify
   * nothing.
   */
  public static boolean verifies(
      UrlSigningKeys keys, String header, String body, long nowSeconds, long toleranceSeconds) {
    long t = -1;
    List<String> given = new java.util.ArrayList<>();
    for (String part : header.split(",")) {
      int eq = part.indexOf('=');
      if (eq < 0) {
        return false;
      }
      String name = part.substring(0, eq).trim();
      String value = part.substring(eq + 1).trim();
      if (name.equals("t")) {
        try {
          t = Long.parseLong(value);
        } catch (NumberFormatException e) {
          return false;
        }
      } else if (name.equals("v1")) {
        given.add(value);
      }
    }
    if (t < 0 || Math.abs(nowSeconds - t) > toleranceSeconds || keys.isEmpty()) {
      return false;
    }
    boolean valid = false;
    for (String expected : keys.hexSignatures(t + "." + body)) {
      for (String signature : given) {
        valid |=
            MessageDigest.isEqual(
                expected.getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII));
      }
    }
    return valid;
  }
}
