package dev.derive.protocol.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The identity of a derivative or of an intermediate step output: SHA-256 (FIPS 180-4) over the
 * UTF-8 bytes of the {@link CanonicalJson} (RFC 8785) encoding of what determines its bytes, with
 * object members whose value is {@code null} left out first, so an absent optional and an explicit
 * {@code null} are the same derivative. Written as 64 lower-case hex characters; it is the job id
 * and the cache key.
 */
public final class Fingerprint {
  private static final Pattern FORM = Pattern.compile("[0-9a-f]{64}");

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Fingerprint() {}

  /** Fingerprints {@code value} (any Jackson-serialisable value). */
  public static String of(Object value) {
    JsonNode tree = value instanceof JsonNode n ? n.deepCopy() : MAPPER.valueToTree(value);
    return sha256Hex(CanonicalJson.encode(withoutNullMembers(tree)));
  }

  /** {@code node} with every object member whose value is {@code null} removed, at any depth. */
  private static JsonNode withoutNullMembers(JsonNode node) {
    if (node instanceof ObjectNode object) {
      object.properties().removeIf(member -> member.getValue().isNull());
    }
    node.forEach(Fingerprint::withoutNullMembers);
    return node;
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
