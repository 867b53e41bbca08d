package dev.derive.coordinator.plan;

import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import dev.derive.protocol.message.Operation;
import java.util.Map;
import java.util.TreeMap;

/**
 * Completes an operation's parameters the one way both kinds of plan (target and explicit steps)
 * need: given values, then declared defaults (the output type's own where the parameter declares
 * one, {@link ParameterDescriptor#defaultFor}), and {@code mediaType} always the step's output, so
 * a plan spelled out fully and one relying on defaults fingerprint the same.
 */
final class OperationParameters {
  /** The parameter that names a step's output media type. */
  static final String MEDIA_TYPE = "mediaType";

  private OperationParameters() {}

  /** The operation with {@code given} parameters, defaults filled in and its output type set. */
  static Operation complete(
      OperationDescriptor operation, Map<String, Object> given, String outputMediaType) {
    Map<String, Object> params = new TreeMap<>();
    for (ParameterDescriptor parameter : operation.parameters()) {
      Object value =
          parameter.name().equals(MEDIA_TYPE) ? outputMediaType : given.get(parameter.name());
      if (value == null) {
        value = parameter.defaultFor(outputMediaType);
      }
      if (value != null) {
        params.put(parameter.name(), value);
      }
    }
    return new Operation(operation.name(), params);
  }
}
