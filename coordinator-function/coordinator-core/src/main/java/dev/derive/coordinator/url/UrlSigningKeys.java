package dev.derive.coordinator.url;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys image URLs are signed with: the first signs, every one verifies, so a key can be rotated
 * without breaking URLs already handed out (put the new key first and the old one second, then drop
 * the old one once its URLs are no longer used).
 *
 * <p>A signature is HMAC-SHA256 (RFC 2104, with SHA-256 of FIPS 180-4) of the UTF-8 bytes of the
 * path after the signature segment ({@code /<options>/<source key>}) exactly as the function
 * receives it: percent-decoded once, as an API Gateway HTTP API hands every path over, and
 * otherwise byte for byte as sent (docs/image-urls.md), encoded as URL-safe base64 without padding
 * (RFC 4648 section 5): 43 characters. Unlike imgproxy there is no salt: a key of at least 32
 * random bytes needs none.
 *
 * <p>The same kind of keys (another secret) sign callbacks: {@link #hexSignatures}.
 */
public final class UrlSigningKeys {
  /** Fewest bytes a key may have: SHA-256's output length, as RFC 2104 section 3 advises. */
  public static final int MIN_KEY_BYTES = 32;

  private static final String HMAC = "HmacSHA256";
  private final List<byte[]> keys;

  private UrlSigningKeys(List<byte[]> keys) {
    this.keys = keys;
  }

  /**
   * Keys written as hex strings separated by white space or commas (the format of the signing
   * secret and of {@code URL_SIGNING_KEYS}), the signing key first.
   *
   * @throws IllegalArgumentException if a key is not hex or shorter than {@value #MIN_KEY_BYTES}
   *     bytes; the message never holds a key
   */
  public static UrlSigningKeys parse(String text) {
    List<byte[]> keys = new ArrayList<>();
    for (String hex : text.trim().split("[\\s,]+")) {
      if (hex.isEmpty()) {
        continue;
      }
      byte[] key;
      try {
        key = HexFormat.of().parseHex(hex);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("URL signing key " + (keys.size() + 1) + " is not hex");
      }
      if (key.length < MIN_KEY_BYTES) {
        throw new IllegalArgumentException(
            "URL signing key "
                + (keys.size() + 1)
                + " has "
                + key.length
                + " bytes; at least "
                + MIN_KEY_BYTES
                + " are needed");
      }
      keys.add(key);
    }
    return new UrlSigningKeys(List.copyOf(keys));
  }

  /** No key at all: every signature is refused. */
  public static UrlSigningKeys none() {
    return new UrlSigningKeys(List.of());
  }

  /** Whether there is any key (without one, no URL verifies). */
  public boolean isEmpty() {
    return keys.isEmpty();
  }

  /**
   * The signature of {@code path} with the first key.
   *
   * @throws IllegalStateException if there is no key
   */
  public String sign(String path) {
    if (keys.isEmpty()) {
      throw new IllegalStateException("no URL signing key is configured");
    }
    return signature(keys.get(0), path);
  }

  /**
   * Whether {@code signature} is the signature of {@code path} under any of the keys, compared in
   * time independent of where they differ.
   */
  public boolean verifies(String signature, String path) {
    byte[] given = signature.getBytes(StandardCharsets.US_ASCII);
    boolean valid = false;
    for (byte[] key : keys) {
      valid |=
          MessageDigest.isEqual(given, signature(key, path).getBytes(StandardCharsets.US_ASCII));
    }
    return valid;
  }

  /**
   * HMAC-SHA256 of the UTF-8 bytes of {@code message} under each key, the signing key first, in
   * lower-case hex (the callback signature's {@code v1} values, {@code docs/completion-events.md}).
   *
   * @throws IllegalStateException if there is no key
   */
  public List<String> hexSignatures(String message) {
    if (keys.isEmpty()) {
      throw new IllegalStateException("no callback signing key is configured");
    }
    List<String> signatures = new ArrayList<>();
    for (byte[] key : keys) {
      signatures.add(HexFormat.of().formatHex(hmac(key, message)));
    }
    return signatures;
  }

  private static byte[] hmac(byte[] key, String message) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(key, HMAC));
      return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  /** HMAC-SHA256 of the UTF-8 bytes of {@code path} under {@code key}, base64url, no padding. */
  public static String signature(byte[] key, String path) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(hmac(key, path));
  }
}
