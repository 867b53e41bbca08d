package dev.derive.coordinator.identity;

import java.util.Optional;

/**
 * Detects a media type from the first bytes of a file. A seam: {@link TikaMediaTypeDetector}
 * (Apache Tika's magic and glob database) is the one deployed.
 */
public interface MediaTypeDetector {

  /** How many leading bytes the detector needs to see. */
  int prefixBytes();

  /** Returns the media type the bytes start like, or empty when none is recognised. */
  Optional<String> detect(byte[] prefix);

  /**
   * Returns the media type of content starting with {@code prefix}, using {@code fileName} only to
   * refine what the bytes say (a ZIP container named {@code .docx} is a Word document; bytes that
   * say JPEG stay JPEG whatever the name). The default ignores the name.
   *
   * @param fileName the last segment of the object key, or {@code null}
   */
  default Optional<String> detect(byte[] prefix, String fileName) {
    return detect(prefix);
  }

  /**
   * Why content starting with {@code prefix} and named {@code fileName}, which {@link #detect}
   * found no readable type in, is still not read, when the bytes say something a user can act on (a
   * ZIP package whose name does not say which document it is). Empty otherwise; the default.
   */
  default Optional<String> unreadableBecause(byte[] prefix, String fileName) {
    return Optional.empty();
  }
}
