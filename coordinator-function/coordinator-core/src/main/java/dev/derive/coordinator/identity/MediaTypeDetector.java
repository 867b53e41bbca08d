package dev.derive.coordinator.identity;

import java.util.Optional;

/**
 * Detects a media type from the first bytes of a file. A seam: the magic-number detector serves
 * images now; a content-based detector (Apache Tika) can replace it without touching its callers.
 */
public interface MediaTypeDetector {

  /** How many leading bytes the detector needs to see. */
  int prefixBytes();

  /** Returns the media type the bytes start like, or empty when none is recognised. */
  Optional<String> detect(byte[] prefix);
}
