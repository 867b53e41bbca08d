package dev.derive.coordinator;

import dev.derive.protocol.capability.CapabilityCatalogue;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import java.util.List;

/**
 * The capability declarations coordinator tests run with: those of this source tree's worker
 * modules, read from their source folders ({@code derive.root}), so the coordinator's tests depend
 * on no worker module and each declaration exists once.
 */
public final class Declarations {
  /** The value of {@code CAPABILITY_DECLARATIONS} that reads them, for settings made in tests. */
  public static final String LOCATION =
      CapabilityDeclarations.sourceTreeRoot().toAbsolutePath().normalize()
          + "/"
          + CapabilityDeclarations.SOURCE_TREE_PATTERN;

  /** Every declaration, sorted by name. */
  public static final List<CapabilityDescriptor> ALL = CapabilityDeclarations.load(LOCATION);

  /** All of them taken together. */
  public static final CapabilityCatalogue CATALOGUE = new CapabilityCatalogue(ALL);

  /** The target options they make. */
  public static final List<ParameterDescriptor> TARGET_OPTIONS = CATALOGUE.targetOptions();

  private Declarations() {}

  /** The declared limit {@code name}, e.g. {@code maxDimension}. */
  public static int limit(String name) {
    return CATALOGUE.limits().get(name);
  }

  /** The declaration of the capability {@code name}. */
  public static CapabilityDescriptor named(String name) {
    return CATALOGUE.named(name).orElseThrow();
  }
}
