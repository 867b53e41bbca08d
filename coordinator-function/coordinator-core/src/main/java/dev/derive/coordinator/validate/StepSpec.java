package dev.derive.coordinator.validate;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One validated entry of a request's explicit {@code steps}: an operation of a capability with its
 * given parameters (checked against the operation's descriptor; defaults not yet filled in).
 *
 * @param capability capability name, e.g. {@code pdf}
 * @param operation operation name of that capability, e.g. {@code render}
 * @param params given parameters by name, normalised ({@code 256.0} becomes {@code 256})
 */
public record StepSpec(String capability, String operation, Map<String, Object> params) {
  public StepSpec {
    params = Collections.unmodifiableMap(new TreeMap<>(params));
  }
}
