package dev.derive.coordinator.plan;

import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.StepSpec;
import dev.derive.coordinator.validate.TargetSpec;
import dev.derive.protocol.capability.CapabilityDescriptor;
import java.util.List;
import java.util.Set;

/**
 * Turns a target (or explicit steps) into an addressed plan, reading only the capability
 * descriptors.
 *
 * <p>A facade over the three parts of planning: {@link TargetRoute} searches the {@link
 * ConversionGraph} for the cheapest chain from the detected source type to the target type that
 * applies the target's options (for example Markdown → PDF → PNG page → JPEG thumbnail; one edge is
 * one step: the conversion's operations of one capability fused); {@link ExplicitChain} checks and
 * fuses explicit steps; {@link OutputAddresser} then addresses each step's output by the
 * fingerprint of the source and the steps up to it.
 */
public final class Planner {
  private final ConversionGraph graph;
  private final TargetRoute targetRoute;
  private final ExplicitChain explicitChain;
  private final OutputAddresser addresser;
  private final SourceObjects sourceObjects;

  /**
   * @param capabilities the capabilities deployed
   * @param derivativesBucket bucket named by {@code DERIVATIVES_BUCKET}, where outputs go
   */
  public Planner(List<CapabilityDescriptor> capabilities, String derivativesBucket) {
    this.graph = new ConversionGraph(capabilities);
    this.targetRoute = new TargetRoute(graph);
    this.explicitChain = new ExplicitChain(graph);
    this.addresser = new OutputAddresser(derivativesBucket);
    this.sourceObjects = new SourceObjects(capabilities);
  }

  /**
   * Plans the derivative {@code target} of {@code source}; see {@link TargetRoute}.
   *
   * @throws NoConversionException if no chain converts the source to the target media type
   * @throws InvalidRequestException if chains exist but none applies a given target option
   */
  public Plan plan(SourceIdentity source, TargetSpec target) {
    return plan(source, target, SourceObjects.NONE);
  }

  /**
   * Plans the derivative {@code target} of {@code source}, the other objects of the source bucket
   * its parameters name ({@link SourceObjects}) pinned as {@code objects} finds them.
   *
   * @throws dev.derive.coordinator.identity.SourceNotFoundException if such an object is missing
   *     (pointer {@code /target/<option>})
   */
  public Plan plan(SourceIdentity source, TargetSpec target, SourceObjects.Lookup objects) {
    return addresser.address(
        source,
        sourceObjects.pin(
            targetRoute.steps(source.mediaType(), target), objects, name -> "/target/" + name));
  }

  /**
   * Plans explicit steps; see {@link ExplicitChain}.
   *
   * @throws IllegalArgumentException if {@code specs} is empty
   * @throws NoConversionException if a step cannot read what the step before it writes
   * @throws InvalidRequestException if a step's operations cannot run together
   */
  public Plan plan(SourceIdentity source, List<StepSpec> specs) {
    return plan(source, specs, SourceObjects.NONE);
  }

  /**
   * Plans explicit steps, the other objects of the source bucket their parameters name pinned as
   * {@code objects} finds them.
   *
   * @throws dev.derive.coordinator.identity.SourceNotFoundException if such an object is missing
   *     (pointer {@code /steps/<i>/params/<name>})
   */
  public Plan plan(SourceIdentity source, List<StepSpec> specs, SourceObjects.Lookup objects) {
    return addresser.address(
        source,
        sourceObjects.pin(
            explicitChain.steps(source.mediaType(), specs),
            objects,
            name -> {
              for (int i = 0; i < specs.size(); i++) {
                if (specs.get(i).params().containsKey(name)) {
                  return "/steps/" + i + "/params/" + name;
                }
              }
              return "/steps";
            }));
  }

  /**
   * Whether {@code plan}'s derivative may also exist as the intermediate of a longer chain: some
   * other capability reads what its last step writes (a PNG page, a PDF made from Markdown), so a
   * chain may continue after it and have stored the same output under {@code intermediates/} with
   * the same fingerprint. False for most derivatives (an image step's output is read by no other
   * capability), which spares their cache misses a second lookup.
   */
  public boolean mayBeIntermediate(Plan plan) {
    PlannedStep last = plan.step(plan.size() - 1);
    return graph.readByOtherThan(last.capability(), last.outputMediaType());
  }

  /** Every media type some chain reaches from {@code source}, sorted. */
  public Set<String> reachable(String source) {
    return graph.reachable(source);
  }
}
