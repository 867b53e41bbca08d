package dev.derive.coordinator.api;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * Parses request bodies strictly: an object that names one member twice is refused (400) instead of
 * silently keeping the last value. RFC 8259 section 4 only says names SHOULD be unique and leaves
 * the outcome of a duplicate unpredictable; I-JSON (RFC 7493 section 2.3) forbids them, and a body
 * two parsers would read differently has no meaning Derive should guess. Likewise anything after
 * the body's one JSON value (a second object, a stray bracket, text) is refused instead of ignored:
 * a JSON text is one value (RFC 8259 section 2).
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {
  /**
   * Turns on Jackson's duplicate detection ({@link StreamReadFeature#STRICT_DUPLICATE_DETECTION})
   * and its check for content after the value ({@link
   * DeserializationFeature#FAIL_ON_TRAILING_TOKENS}).
   */
  @Override
  public void customize(ObjectMapper mapper) {
    mapper.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
    mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  }
}
