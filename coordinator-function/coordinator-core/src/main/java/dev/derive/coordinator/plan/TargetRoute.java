package dev.derive.coordinator.plan;

import static dev.derive.coordinator.plan.OperationParameters.MEDIA_TYPE;

import dev.derive.coordinator.plan.ConversionGraph.Edge;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.TargetSpec;
import dev.derive.coordinator.validate.Violation;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import dev.derive.protocol.capability.ParameterGroup;
import dev.derive.protocol.message.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Chooses, for a target, the chain of the {@link ConversionGraph} that applies the target's
 * options, and turns it into planned steps (outputs not yet addressed).
 *
 * <p>Each given target option goes to the last operation of the chain that {@linkplain
 * OperationDescriptor#consumes() consumes} it, and only chains that consume every option the target
 * sets to a non-default value qualify; an option equal to its default is the same as an absent one.
 * Optional operations (resize) are applied only when given an option; parameters not given take
 * their declared defaults. An operation with {@linkplain OperationDescriptor#hints() hints} is also
 * given the values a later step applies for them, defaults included (the PDF render learns the
 * resize's box). The cheapest qualifying chain wins; ties in cost go to fewer steps, then to
 * declaration order.
 */
// Over 300 lines because it is one search whose parts share its state.
final class TargetRoute {
  private final ConversionGraph graph;

  TargetRoute(ConversionGraph graph) {
    this.graph = graph;
  }

  /**
   * The steps making {@code target} from a source of {@code sourceType}.
   *
   * @throws NoConversionException if no chain converts the source to the target media type
   * @throws InvalidRequestException if chains exist but none applies a given target option, or the
   *     options set an operation that lacks what it needs (a resize without a box)
   */
  List<PlannedStep> steps(String sourceType, TargetSpec target) {
    Map<String, Object> options = effectiveOptions(target);
    List<List<Edge>> chains = graph.chains(sourceType, target.mediaType());
    if (chains.isEmpty()) {
      throw new NoConversionException(sourceType, target.mediaType(), graph.reachable(sourceType));
    }
    List<PlannedStep> best = null;
    int bestCost = Integer.MAX_VALUE;
    for (List<Edge> chain : chains) {
      List<PlannedStep> steps = build(chain, options);
      int cost = chain.stream().mapToInt(e -> e.conversion().cost()).sum();
      if (steps != null && (cost < bestCost || (cost == bestCost && steps.size() < best.size()))) {
        best = steps;
        bestCost = cost;
      }
    }
    if (best == null) {
      throw unusableOptions(sourceType, target, options, chains);
    }
    requireParameterGroups(best, options);
    return best;
  }

  /**
   * Refuses a plan whose target options break a {@linkplain ParameterGroup group} of the operation
   * they landed on, as the worker would refuse the step (late, as a failed job): an operation that
   * still lacks every parameter of an {@code atLeastOne} group (a {@code fit}, {@code background}
   * or {@code withoutEnlargement} with neither {@code width} nor {@code height} sets a resize with
   * no box), part of an {@code allOrNone} group ({@code focusX} without {@code focusY}, one side of
   * a padding), or more than one of an {@code atMostOne} group.
   *
   * @throws InvalidRequestException naming each such option
   */
  private void requireParameterGroups(List<PlannedStep> steps, Map<String, Object> options) {
    List<Violation> violations = new ArrayList<>();
    for (PlannedStep step : steps) {
      CapabilityDescriptor capability =
          graph.capabilities().stream()
              .filter(c -> c.name().equals(step.capability()))
              .findFirst()
              .orElseThrow();
      for (Operation operation : step.operations()) {
        OperationDescriptor declared = capability.operation(operation.operation()).orElseThrow();
        for (ParameterDescriptor required : declared.parameters()) {
          // an operation applied for its other options still needs what it declares required
          // (a watermark's opacity without the watermark)
          if (required.mustBeGiven() && !operation.params().containsKey(required.name())) {
            options.keySet().stream()
                .filter(declared.consumes()::contains)
                .forEach(
                    option ->
                        violations.add(
                            new Violation(
                                "/target/" + option,
                                "takes effect only with "
                                    + required.name()
                                    + " (it is applied by the "
                                    + declared.name()
                                    + ", which needs it)")));
          }
        }
        for (ParameterGroup group : declared.groups()) {
          List<String> given =
              group.names().stream().filter(operation.params()::containsKey).toList();
          if (group.rule() == ParameterGroup.Rule.ALL_OR_NONE
              && !given.isEmpty()
              && given.size() < group.names().size()) {
            group.names().stream()
                .filter(name -> !given.contains(name))
                .forEach(
                    name ->
                        violations.add(
                            new Violation(
                                "/target/" + name,
                                "is needed with "
                                    + String.join(" and ", given)
                                    + " (the "
                                    + declared.name()
                                    + " takes all of "
                                    + String.join(", ", group.names())
                                    + " or none)")));
            continue;
          }
          if (group.rule() == ParameterGroup.Rule.AT_MOST_ONE && given.size() > 1) {
            given.forEach(
                name ->
                    violations.add(
                        new Violation(
                            "/target/" + name,
                            "cannot be given with "
                                + String.join(
                                    " or ",
                                    given.stream().filter(n -> !n.equals(name)).toList()))));
            continue;
          }
          boolean unmet = group.rule() == ParameterGroup.Rule.AT_LEAST_ONE && given.isEmpty();
          if (!unmet) {
            continue;
          }
          options.keySet().stream()
              .filter(declared.consumes()::contains)
              .forEach(
                  option ->
                      violations.add(
                          new Violation(
                              "/target/" + option,
                              "takes effect only with "
                                  + String.join(" or ", group.names())
                                  + " (it is applied by the "
                                  + declared.name()
                                  + ", which needs one of them)")));
        }
      }
    }
    if (!violations.isEmpty()) {
      throw new InvalidRequestException(violations);
    }
  }

  /**
   * The refusal when no chain applies every option: it blames the options no chain can apply at
   * all; if each fits some chain but no chain takes them together, the combination is at fault and
   * every option is named.
   */
  private static InvalidRequestException unusableOptions(
      String sourceType, TargetSpec target, Map<String, Object> options, List<List<Edge>> chains) {
    List<String> unusable =
        options.keySet().stream()
            .filter(
                option ->
                    chains.stream()
                        .noneMatch(c -> build(c, Map.of(option, options.get(option))) != null))
            .toList();
    List<Violation> violations = new ArrayList<>();
    for (String option : unusable.isEmpty() ? options.keySet() : unusable) {
      violations.add(
          new Violation(
              "/target/" + option,
              "does not apply to any conversion from " + sourceType + " to " + target.mediaType()));
    }
    return new InvalidRequestException(violations);
  }

  /**
   * The target's options without {@code mediaType} and without those equal to the default of every
   * operation parameter consuming them (a default spelled out means the same as one left out).
   */
  private Map<String, Object> effectiveOptions(TargetSpec target) {
    Map<String, Object> options = new TreeMap<>();
    target
        .params()
        .forEach(
            (name, value) -> {
              if (!name.equals(MEDIA_TYPE)
                  && !isDefaultEverywhere(name, value, target.mediaType())) {
                options.put(name, value);
              }
            });
    return options;
  }

  /**
   * Whether {@code value} is what every consumer of {@code option} would fill in anyway for a
   * target of {@code mediaType} (a default declared for that output included).
   */
  private boolean isDefaultEverywhere(String option, Object value, String mediaType) {
    boolean consumed = false;
    for (CapabilityDescriptor capability : graph.capabilities()) {
      for (OperationDescriptor operation : capability.operations()) {
        if (operation.consumes().contains(option)) {
          consumed = true;
          ParameterDescriptor parameter = operation.parameter(option).orElseThrow();
          if (!Objects.equals(parameter.defaultFor(mediaType), value)) {
            return false;
          }
        }
      }
    }
    return consumed;
  }

  /**
   * The steps of {@code chain} with {@code options} given to their last consumers, or {@code null}
   * if some option has no consumer in the chain.
   */
  private static List<PlannedStep> build(List<Edge> chain, Map<String, Object> options) {
    List<Map<String, Map<String, Object>>> assigned = new ArrayList<>();
    chain.forEach(e -> assigned.add(new HashMap<>()));
    for (Map.Entry<String, Object> option : options.entrySet()) {
      boolean placed = false;
      for (int i = chain.size() - 1; i >= 0 && !placed; i--) {
        Edge edge = chain.get(i);
        for (String name : edge.conversion().operations()) {
          OperationDescriptor operation = edge.capability().operation(name).orElseThrow();
          if (operation.consumes().contains(option.getKey())) {
            assigned
                .get(i)
                .computeIfAbsent(name, n -> new TreeMap<>())
                .put(option.getKey(), option.getValue());
            placed = true;
            break;
          }
        }
      }
      if (!placed) {
        return null;
      }
    }
    List<PlannedStep> steps = new ArrayList<>();
    for (int i = 0; i < chain.size(); i++) {
      Edge edge = chain.get(i);
      List<Operation> operations = new ArrayList<>();
      for (String name : edge.conversion().operations()) {
        OperationDescriptor operation = edge.capability().operation(name).orElseThrow();
        Map<String, Object> given = assigned.get(i).get(name);
        if (given == null && operation.optional()) {
          continue;
        }
        operations.add(
            OperationParameters.complete(
                operation, given == null ? Map.of() : given, edge.conversion().target()));
      }
      steps.add(
          new PlannedStep(
              edge.capability().name(),
              operations,
              edge.conversion().source(),
              edge.conversion().target(),
              null));
    }
    return withHints(chain, steps);
  }

  /**
   * {@code steps} with each operation's {@linkplain OperationDescriptor#hints() hints} filled in:
   * for each hinted parameter it was not given, a hinting operation gets the value that the nearest
   * later operation having that parameter applies, its default included. The PDF render gets the
   * resize's width, height, fit and withoutEnlargement; an operation hinted with {@code page}
   * before a page render gets the page drawn, 1 when the target names none. An optional operation
   * the plan leaves out applies nothing, so it hints nothing.
   */
  private static List<PlannedStep> withHints(List<Edge> chain, List<PlannedStep> steps) {
    List<PlannedStep> hinted = new ArrayList<>(steps);
    for (int i = 0; i < steps.size(); i++) {
      List<Operation> operations = new ArrayList<>();
      for (Operation operation : steps.get(i).operations()) {
        List<String> hints =
            chain.get(i).capability().operation(operation.operation()).orElseThrow().hints();
        Map<String, Object> params = new TreeMap<>(operation.params());
        for (int j = i + 1; j < steps.size() && !hints.isEmpty(); j++) {
          for (Operation later : steps.get(j).operations()) {
            hints.stream()
                .filter(later.params()::containsKey)
                .forEach(h -> params.putIfAbsent(h, later.params().get(h)));
          }
        }
        operations.add(new Operation(operation.operation(), params));
      }
      PlannedStep step = steps.get(i);
      hinted.set(
          i,
          new PlannedStep(
              step.capability(),
              operations,
              step.inputMediaType(),
              step.outputMediaType(),
              step.output()));
    }
    return hinted;
  }
}
