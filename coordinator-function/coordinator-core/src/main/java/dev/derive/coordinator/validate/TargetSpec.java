package dev.derive.coordinator.validate;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The validated {@code target} of a request: the media type to produce and the options given,
 * normalised (integers as {@link Integer}, so {@code 256} and {@code 256.0} are equal). Defaults
 * are not filled in here; the planner does that from the capability descriptors.
 *
 * @param mediaType target media type essence, e.g. {@code image/jpeg}
 * @param params every given target option by name, including {@code mediaType}
 */
public record TargetSpec(String mediaType, Map<String, Object> params) {
  public TargetSpec {
    params = Collections.unmodifiableMap(new TreeMap<>(params));
  }
}
