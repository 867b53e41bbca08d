package dev.derive.coordinator.api;

import dev.derive.coordinator.config.CoordinatorConfig;
import dev.derive.coordinator.config.DeployedCapabilities;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.protocol.capability.CapabilityCatalogue;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.Conversion;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code GET /v1/capabilities}: the capabilities this deployment dispatches to, as their worker
 * modules declare them (the same data the planner reads), the targets reachable from each source
 * media type, the target options, and the limits in force.
 */
@Path("/v1/capabilities")
@Produces(MediaType.APPLICATION_JSON)
public class CapabilitiesResource {
  private final CapabilitiesResponse response;

  CapabilitiesResource(CoordinatorConfig config, DeployedCapabilities deployed) {
    this.response = CapabilitiesResponse.of(config, deployed);
  }

  /**
   * The body of the response.
   *
   * @param capabilities each deployed capability: name, description, queue variable, the
   *     conversions (source, target, cost, operations) and the operations with their parameters and
   *     the target options they consume
   * @param conversions for each source media type, the target media types some chain reaches
   * @param targetOptions the options a request's {@code target} may give besides {@code mediaType}
   * @param limits the limits in force, by name: the coordinator's and those the capabilities
   *     declare
   */
  public record CapabilitiesResponse(
      List<CapabilityView> capabilities,
      List<SourceConversions> conversions,
      List<ParameterDescriptor> targetOptions,
      Map<String, Object> limits) {

    static CapabilitiesResponse of(CoordinatorConfig config, DeployedCapabilities capabilities) {
      CapabilityCatalogue catalogue = capabilities.catalogue();
      List<CapabilityDescriptor> deployed = catalogue.capabilities();
      Planner planner = new Planner(deployed, config.derivativesBucket());
      TreeSet<String> sources = new TreeSet<>();
      deployed.forEach(c -> sources.addAll(c.reads()));
      List<SourceConversions> conversions = new ArrayList<>();
      for (String source : sources) {
        conversions.add(new SourceConversions(source, List.copyOf(planner.reachable(source))));
      }
      Map<String, Object> limits = new LinkedHashMap<>();
      limits.put("maxSourceBytes", config.limits().maxSourceBytes());
      limits.put("maxRequestBytes", config.limits().maxRequestBytes());
      limits.put("maxWaitSeconds", RequestValidator.MAX_WAIT_SECONDS);
      limits.put("maxSteps", RequestValidator.MAX_STEPS);
      limits.putAll(catalogue.limits());
      limits.put("downloadUrlSeconds", config.presignedUrlExpiry().toSeconds());
      return new CapabilitiesResponse(
          deployed.stream().map(CapabilityView::of).toList(),
          conversions,
          catalogue.targetOptions(),
          limits);
    }
  }

  /**
   * One capability as {@code GET /v1/capabilities} shows it: its declaration with the conversions
   * grouped by target (the declared pairs, written compactly).
   *
   * @param name capability name
   * @param description what it does
   * @param conversions its conversions, sources with one target, cost and operations grouped
   * @param operations its operations with their parameters and consumed target options
   */
  public record CapabilityView(
      String name,
      String description,
      List<ConversionGroup> conversions,
      List<OperationDescriptor> operations) {
    static CapabilityView of(CapabilityDescriptor capability) {
      Map<List<Object>, ConversionGroup> groups = new LinkedHashMap<>();
      for (Conversion c : capability.conversions()) {
        List<Object> key = List.of(c.target(), c.cost(), c.operations());
        ConversionGroup group =
            groups.computeIfAbsent(
                key,
                k -> new ConversionGroup(new ArrayList<>(), c.target(), c.cost(), c.operations()));
        group.sources().add(c.source());
      }
      return new CapabilityView(
          capability.name(),
          capability.description(),
          List.copyOf(groups.values()),
          capability.operations());
    }
  }

  /**
   * Conversions of one capability that share target, cost and operations.
   *
   * @param sources media types read
   * @param target media type written
   * @param cost relative cost the planner minimises
   * @param operations operations a step applies, in order
   */
  public record ConversionGroup(
      List<String> sources, String target, int cost, List<String> operations) {}

  /**
   * What one source media type converts to.
   *
   * @param source media type read
   * @param targets media types some chain of capabilities writes from it, sorted
   */
  public record SourceConversions(String source, List<String> targets) {}

  /** The capabilities, conversions, target options and limits. */
  @GET
  @Operation(summary = "Capabilities, conversions, operations with their parameters, and limits")
  @APIResponse(responseCode = "200", description = "The catalogue")
  public CapabilitiesResponse capabilities() {
    return response;
  }
}
