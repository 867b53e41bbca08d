package dev.derive.coordinator.url;

import java.util.Locale;

/**
 * What {@code f:auto} stands for: AVIF when the {@code Accept} header lists {@code image/avif},
 * else WebP when it lists {@code image/webp}, else JPEG, as imgproxy and AWS's Dynamic Image
 * Transformation choose. A type counts only when named with a non-zero {@code q} (RFC 9110 section
 * 12.5.1); {@code image/*} and {@code *}{@code /*} do not, since every browser that decodes AVIF or
 * WebP names it. Responses chosen this way carry {@code Vary: Accept} (RFC 9110 section 12.5.5).
 */
public final class FormatNegotiation {
  private FormatNegotiation() {}

  /** The media type for {@code accept} (the header's value, or {@code null} when absent). */
  public static String pick(String accept) {
    if (accepts(accept, "image/avif")) {
      return "image/avif";
    }
    if (accepts(accept, "image/webp")) {
      return "image/webp";
    }
    return "image/jpeg";
  }

  private static boolean accepts(String accept, String mediaType) {
    if (accept == null) {
      return false;
    }
    for (String range : accept.split(",")) {
      String[] parts = range.split(";");
      if (!parts[0].trim().toLowerCase(Locale.ROOT).equals(mediaType)) {
        continue;
      }
      double q = 1;
      for (int i = 1; i < parts.length; i++) {
        String param = parts[i].trim().toLowerCase(Locale.ROOT);
        if (param.startsWith("q=")) {
          try {
            q = Double.parseDouble(param.substring(2));
          } catch (NumberFormatException e) {
            q = 0;
          }
        }
      }
      if (q > 0) {
        return true;
      }
    }
    return false;
  }
}
