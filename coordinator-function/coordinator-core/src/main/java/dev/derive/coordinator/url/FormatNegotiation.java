package dev.derive.coordinator.url;

import java.util.List;
import java.util.Locale;

/**
 * What {@code f:auto} stands for: the first of the formats a capability declares for it ({@link
 * dev.derive.protocol.capability.CapabilityDescriptor.ImageUrlFormats}; the image capability's
 * AVIF, then WebP) that the {@code Accept} header lists, else the declared default, as imgproxy and
 * AWS's Dynamic Image Transformation choose. A type counts only when named with a non-zero {@code
 * q} (RFC 9110 section 12.5.1); {@code image/*} and {@code *}{@code /*} do not, since every browser
 * that decodes AVIF or WebP names it. Responses chosen this way carry {@code Vary: Accept} (RFC
 * 9110 section 12.5.5).
 */
final class FormatNegotiation {
  private FormatNegotiation() {}

  /**
   * The media type for {@code accept} (the header's value, or {@code null} when absent): the first
   * of {@code preferred} it names, else {@code fallback}.
   */
  static String pick(String accept, List<String> preferred, String fallback) {
    for (String mediaType : preferred) {
      if (accepts(accept, mediaType)) {
        return mediaType;
      }
    }
    return fallback;
  }

  /** Whether {@code accept} names {@code mediaType} itself with a {@code q} above 0. */
  static boolean accepts(String accept, String mediaType) {
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
