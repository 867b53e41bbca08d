package dev.derive.coordinator.plan;

import dev.derive.coordinator.identity.DerivativeFingerprint;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.validate.TargetSpec;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.Conversion;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a target into steps, reading only the capability descriptors: it picks the cheapest
 * capability that converts the source's media type to the target's, and fuses all of that
 * capability's operations into one step, each parameter taken from the target or, when absent, from
 * the descriptor's default. Then it addresses each step's output by the fingerprint of the source
 * and the steps up to it. (Chains over several capabilities come with the next capabilities.)
 */
public final class Planner {
  private final List<CapabilityDescriptor> capabilities;
  private final String derivativesBucket;

  /**
   * @param capabilities the capabilities deployed
   * @param derivativesBucket bucket named by {@code DERIVATIVES_BUCKET}, where outputs go
   */
  public Planner(List<CapabilityDescriptor> capabilities, String derivativesBucket) {
    this.capabilities = List.copyOf(capabilities);
    this.derivativesBucket = derivativesBucket;
  }

  /**
   * Plans the derivative {@code target} of {@code source}.
   *
   * @throws NoConversionException if no capability converts the source to the target media type
   */
  public Plan plan(SourceIdentity source, TargetSpec target) {
    CapabilityDescriptor capability =
        cheapest(source.mediaType(), target.mediaType())
            .orElseThrow(() -> new NoConversionException(source.mediaType(), target.mediaType()));
    List<Operation> operations = new ArrayList<>();
    for (OperationDescriptor operation : capability.operations()) {
      Map<String, Object> params = new LinkedHashMap<>();
      for (ParameterDescriptor parameter : operation.parameters()) {
        Object value = target.params().get(parameter.name());
        if (value == null) {
          value = parameter.defaultValue();
        }
        if (value != null) {
          params.put(parameter.name(), value);
        }
      }
      operations.add(new Operation(operation.name(), params));
    }
    List<PlannedStep> steps =
        List.of(
            new PlannedStep(
                capability.name(), operations, source.mediaType(), target.mediaType(), null));
    return address(source, steps);
  }

  /** Gives each step its content-addressed output and the plan its fingerprint. */
  private Plan address(SourceIdentity source, List<PlannedStep> steps) {
    List<PlannedStep> addressed = new ArrayList<>();
    String fingerprint = null;
    for (int i = 0; i < steps.size(); i++) {
      fingerprint = DerivativeFingerprint.of(source, steps.subList(0, i + 1));
      addressed.add(
          steps
              .get(i)
              .withOutput(
                  ObjectRef.of(derivativesBucket, DerivativeFingerprint.objectKey(fingerprint))));
    }
    return new Plan(fingerprint, addressed);
  }

  private Optional<CapabilityDescriptor> cheapest(String source, String target) {
    return capabilities.stream()
        .filter(c -> c.converts(source, target))
        .min(Comparator.comparingInt(c -> cost(c, source, target)));
  }

  private static int cost(CapabilityDescriptor capability, String source, String target) {
    return capability.conversions().stream()
        .filter(c -> c.source().equals(source) && c.target().equals(target))
        .mapToInt(Conversion::cost)
        .min()
        .orElse(Integer.MAX_VALUE);
  }
}
