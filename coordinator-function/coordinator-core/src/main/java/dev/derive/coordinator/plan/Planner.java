package dev.derive.coordinator.plan;

import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.StepSpec;
import dev.derive.coordinator.validate.TargetSpec;
import dev.derive.coordinator.validate.Violation;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.Conversion;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns a target (or explicit steps) into steps, reading only the capability descriptors.
 *
 * <p>For a target it searches the conversion graph (nodes: media types; edges: the conversions each
 * capability declares) for the cheapest chain from the detected source type to the target type, for
 * example Markdown → PDF → PNG page → JPEG thumbnail. One edge is one step: the conversion's
 * operations of one capability fused; a chain never uses one capability twice in a row (that would
 * be one step). Each given target option goes to the last operation of the chain that {@linkplain
 * OperationDescriptor#consumes() consumes} it, and only chains that consume every option the target
 * sets to a non-default value qualify; an option equal to its default is the same as an absent one.
 * Optional operations (resize) are applied only when given an option; parameters not given take
 * their declared defaults, and {@code mediaType} is the step's output. An operation with
 * {@linkplain OperationDescriptor#hints() hints} is also given the values a later step applies for
 * them (the PDF render learns the resize's box). Ties in cost go to fewer steps, then to
 * declaration order.
 *
 * <p>Then each step's output is addressed by the fingerprint of the source and the steps up to it.
 */
public final class Planner {
  /** Longest chain searched, in steps. */
  static final int MAX_CHAIN = 4;

  private static final String MEDIA_TYPE = "mediaType";

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
   * @throws NoConversionException if no chain converts the source to the target media type
   * @throws InvalidRequestException if chains exist but none applies a given target option
   */
  public Plan plan(SourceIdentity source, TargetSpec target) {
    Map<String, Object> options = effectiveOptions(target);
    List<List<Edge>> chains = chains(source.mediaType(), target.mediaType());
    if (chains.isEmpty()) {
      throw new NoConversionException(
          source.mediaType(), target.mediaType(), reachable(source.mediaType()));
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
      // Blame the options no chain can apply at all; if each fits some chain but no chain takes
      // them together, the combination is at fault and every option is named.
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
                "does not apply to any conversion from "
                    + source.mediaType()
                    + " to "
                    + target.mediaType()));
      }
      throw new InvalidRequestException(violations);
    }
    return address(source, best);
  }

  /**
   * Plans explicit steps: adjacent entries of one capability are fused into one step, whose
   * conversion is the one of that capability reading the previous output and applying those
   * operations (writing the {@code mediaType} parameter if one is given, else keeping the media
   * type if the capability can, else its first declared target). Operations a conversion always
   * applies are added with their defaults, so a plan spelled out fully and one relying on defaults
   * are the same plan.
   *
   * @throws NoConversionException if a step cannot read what the step before it writes
   * @throws InvalidRequestException if a step's operations cannot run together
   */
  public Plan plan(SourceIdentity source, List<StepSpec> specs) {
    if (specs.isEmpty()) {
      throw new IllegalArgumentException("explicit steps are at least one");
    }
    List<PlannedStep> steps = new ArrayList<>();
    String current = source.mediaType();
    int first = 0;
    while (first < specs.size()) {
      int end = first;
      while (end < specs.size()
          && specs.get(end).capability().equals(specs.get(first).capability())) {
        end++;
      }
      PlannedStep step = explicitStep(source.mediaType(), current, specs, first, end);
      steps.add(step);
      current = step.outputMediaType();
      first = end;
    }
    return address(source, steps);
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
    return capabilities.stream()
        .filter(c -> !c.name().equals(last.capability()))
        .flatMap(c -> c.conversions().stream())
        .anyMatch(c -> c.source().equals(last.outputMediaType()));
  }

  /** Every media type some chain reaches from {@code source}, sorted. */
  public Set<String> reachable(String source) {
    Set<String> seen = new TreeSet<>();
    Deque<String> queue = new ArrayDeque<>(List.of(source));
    Set<String> visited = new HashSet<>(List.of(source));
    while (!queue.isEmpty()) {
      String type = queue.poll();
      for (CapabilityDescriptor capability : capabilities) {
        for (Conversion conversion : capability.conversions()) {
          if (conversion.source().equals(type)) {
            seen.add(conversion.target());
            if (visited.add(conversion.target())) {
              queue.add(conversion.target());
            }
          }
        }
      }
    }
    return seen;
  }

  private PlannedStep explicitStep(
      String sourceType, String input, List<StepSpec> specs, int first, int end) {
    String pointer = "/steps/" + first;
    CapabilityDescriptor capability =
        capabilities.stream()
            .filter(c -> c.name().equals(specs.get(first).capability()))
            .findFirst()
            .orElseThrow(
                () ->
                    new InvalidRequestException(
                        List.of(new Violation(pointer + "/capability", "unknown capability"))));
    Map<String, StepSpec> given = new LinkedHashMap<>();
    for (int i = first; i < end; i++) {
      if (given.put(specs.get(i).operation(), specs.get(i)) != null) {
        throw new InvalidRequestException(
            List.of(
                new Violation(
                    "/steps/" + i + "/operation",
                    "repeats operation "
                        + specs.get(i).operation()
                        + " within one step of "
                        + capability.name())));
      }
    }
    String wanted = null;
    for (StepSpec spec : given.values()) {
      Object mediaType = spec.params().get(MEDIA_TYPE);
      if (mediaType != null) {
        wanted = mediaType.toString();
      }
    }
    Conversion chosen = null;
    for (Conversion conversion : capability.conversions()) {
      if (!conversion.source().equals(input)
          || !inOrder(conversion.operations(), List.copyOf(given.keySet()))
          || (wanted != null && !conversion.target().equals(wanted))) {
        continue;
      }
      if (chosen == null || (conversion.target().equals(input) && !chosen.target().equals(input))) {
        chosen = conversion;
      }
    }
    if (chosen == null) {
      throw NoConversionException.forSteps(
          pointer
              + ": capability "
              + capability.name()
              + " cannot apply "
              + given.keySet()
              + " to "
              + input
              + (wanted == null ? "" : " writing " + wanted)
              + "; it reads "
              + capability.reads(),
          sourceType,
          reachable(sourceType));
    }
    List<Operation> operations = new ArrayList<>();
    for (String name : chosen.operations()) {
      OperationDescriptor operation = capability.operation(name).orElseThrow();
      StepSpec spec = given.get(name);
      if (spec == null && operation.optional()) {
        continue;
      }
      operations.add(
          operation(operation, spec == null ? Map.of() : spec.params(), chosen.target()));
    }
    return new PlannedStep(capability.name(), operations, input, chosen.target(), null);
  }

  /** Whether {@code names} all occur in {@code declared}, in the same relative order. */
  private static boolean inOrder(List<String> declared, List<String> names) {
    int at = -1;
    for (String name : names) {
      int index = declared.indexOf(name);
      if (index <= at) {
        return false;
      }
      at = index;
    }
    return true;
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
              if (!name.equals(MEDIA_TYPE) && !isDefaultEverywhere(name, value)) {
                options.put(name, value);
              }
            });
    return options;
  }

  private boolean isDefaultEverywhere(String option, Object value) {
    boolean consumed = false;
    for (CapabilityDescriptor capability : capabilities) {
      for (OperationDescriptor operation : capability.operations()) {
        if (operation.consumes().contains(option)) {
          consumed = true;
          Object fallback = operation.parameter(option).orElseThrow().defaultValue();
          if (!Objects.equals(fallback, value)) {
            return false;
          }
        }
      }
    }
    return consumed;
  }

  /** Every chain from {@code source} to {@code target} of at most {@link #MAX_CHAIN} steps. */
  private List<List<Edge>> chains(String source, String target) {
    List<List<Edge>> found = new ArrayList<>();
    Set<String> visited = new HashSet<>(List.of(source));
    search(source, target, new ArrayList<>(), visited, found);
    return found;
  }

  private void search(
      String at, String target, List<Edge> path, Set<String> visited, List<List<Edge>> found) {
    if (path.size() == MAX_CHAIN) {
      return;
    }
    String previous = path.isEmpty() ? null : path.get(path.size() - 1).capability().name();
    for (CapabilityDescriptor capability : capabilities) {
      if (capability.name().equals(previous)) {
        continue;
      }
      for (Conversion conversion : capability.conversions()) {
        if (!conversion.source().equals(at)) {
          continue;
        }
        path.add(new Edge(capability, conversion));
        if (conversion.target().equals(target)) {
          found.add(List.copyOf(path)); // and search on: another capability may take an option
        }
        if (visited.add(conversion.target())) {
          search(conversion.target(), target, path, visited, found);
          visited.remove(conversion.target());
        }
        path.remove(path.size() - 1);
      }
    }
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
            operation(operation, given == null ? Map.of() : given, edge.conversion().target()));
      }
      steps.add(
          new PlannedStep(
              edge.capability().name(),
              operations,
              edge.conversion().source(),
              edge.conversion().target(),
              null));
    }
    return withHints(chain, assigned, steps);
  }

  /**
   * {@code steps} with each operation's {@linkplain OperationDescriptor#hints() hints} filled in:
   * when an operation of a later step was given a hinted option by the target, the hinting
   * operation gets that operation's values of every hinted parameter (defaults included), e.g. the
   * PDF render gets the resize's width, height, fit and withoutEnlargement.
   */
  private static List<PlannedStep> withHints(
      List<Edge> chain, List<Map<String, Map<String, Object>>> assigned, List<PlannedStep> steps) {
    List<PlannedStep> hinted = new ArrayList<>(steps);
    for (int i = 0; i < steps.size(); i++) {
      List<Operation> operations = new ArrayList<>();
      for (Operation operation : steps.get(i).operations()) {
        List<String> hints =
            chain.get(i).capability().operation(operation.operation()).orElseThrow().hints();
        Map<String, Object> params = new TreeMap<>(operation.params());
        for (int j = i + 1; j < steps.size() && !hints.isEmpty(); j++) {
          for (Operation later : steps.get(j).operations()) {
            Map<String, Object> given = assigned.get(j).getOrDefault(later.operation(), Map.of());
            if (hints.stream().anyMatch(given::containsKey)) {
              hints.stream()
                  .filter(later.params()::containsKey)
                  .forEach(h -> params.putIfAbsent(h, later.params().get(h)));
            }
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

  /** The operation with {@code given} parameters, defaults filled in and its output type set. */
  private static Operation operation(
      OperationDescriptor operation, Map<String, Object> given, String outputMediaType) {
    Map<String, Object> params = new TreeMap<>();
    for (ParameterDescriptor parameter : operation.parameters()) {
      Object value =
          parameter.name().equals(MEDIA_TYPE) ? outputMediaType : given.get(parameter.name());
      if (value == null) {
        value = parameter.defaultValue();
      }
      if (value != null) {
        params.put(parameter.name(), value);
      }
    }
    return new Operation(operation.name(), params);
  }

  /**
   * Gives each step its content-addressed output and the plan its fingerprint: the last step writes
   * the derivative under {@code derivatives/}, earlier ones under {@code intermediates/}.
   */
  private Plan address(SourceIdentity source, List<PlannedStep> steps) {
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

  /** One conversion of one capability: an edge of the conversion graph. */
  private record Edge(CapabilityDescriptor capability, Conversion conversion) {}
}
