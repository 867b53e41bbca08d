package dev.derive.coordinator.plan;

import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.protocol.message.ObjectRef;
import java.util.ArrayList;
import java.util.List;

/**
 * Gives each planned step its content-addressed output and the plan its fingerprint: the last step
 * writes the derivative under {@code derivatives/}, earlier ones under {@code intermediates/}, each
 * keyed by the fingerprint of the source and the steps up to it ({@link DerivativeFingerprint}).
 */
final class OutputAddresser {
  private final String derivativesBucket;

  /**
   * @param derivativesBucket bucket named by {@code DERIVATIVES_BUCKET}, where outputs go
   */
  OutputAddresser(String derivativesBucket) {
    this.derivativesBucket = derivativesBucket;
  }

  /** The plan of {@code steps} (outputs unset) run on {@code source}, every output addressed. */
  Plan address(SourceIdentity source, List<PlannedStep> steps) {
    List<PlannedStep> addressed = new ArrayList<>();
    String fingerprint = null;
    for (int i = 0; i < steps.size(); i++) {
      fingerprint = DerivativeFingerprint.of(source, steps.subList(0, i + 1));
      String key =
          i == steps.size() - 1
              ? DerivativeFingerprint.objectKey(fingerprint)
              : DerivativeFingerprint.intermediateKey(fingerprint);
      addressed.add(steps.get(i).withOutput(ObjectRef.of(derivativesBucket, key)));
    }
    return new Plan(fingerprint, addressed);
  }
}
