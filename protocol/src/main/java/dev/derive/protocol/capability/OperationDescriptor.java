package dev.derive.protocol.capability;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Optional;

/**
 * One operation a capability offers, with the parameters it takes and the request's target options
 * it consumes.
 *
 * <p>How the planner maps a {@code target} to operations (the same data {@code GET
 * /v1/capabilities} shows): each target option is consumed by the last operation of the chosen
 * chain that lists it in {@link #consumes()}, and becomes that operation's parameter of the same
 * name; parameters the target does not give take their declared default. A parameter named {@code
 * mediaType} is always set to the media type the step writes.
 *
 * @param name operation name, e.g. {@code resize}
 * @param description one line for {@code GET /v1/capabilities}
 * @param parameters the parameters it accepts; any other parameter is rejected
 * @param consumes names of the target options ({@link CapabilityCatalogue#targetOptions()}) this
 *     operation takes as parameters of the same name
 * @param optional {@code true} if a step applies the operation only when it is asked for: the
 *     target gives one of the options it consumes with a value other than the parameter's default,
 *     or explicit steps name it (e.g. {@code resize}); {@code false} if every step performing a
 *     conversion that lists it applies it (e.g. {@code encode})
 * @param hints names of parameters this operation is told about by the steps after it: when an
 *     operation of a later step of the chain applies a parameter of one of these names, this
 *     operation is given its value (defaults included; the nearest such step's) unless it has one
 *     of its own, and applies it only as far as its own description says; empty for most operations
 * @param groups rules over several of its parameters (e.g. a width or a height), empty for most
 * @param urlShorthands image URL options setting several of the target options it consumes at once
 *     (imgproxy's {@code rs:}), empty for most
 * @param summary {@code true} if a step that applies it writes a small JSON object (at most {@code
 *     StepResult.MAX_SUMMARY_BYTES}) that the worker also reports as the step's summary, which the
 *     completion event of the derivative carries ({@code docs/completion-events.md}); e.g. {@code
 *     info}
 */
public record OperationDescriptor(
    String name,
    String description,
    List<ParameterDescriptor> parameters,
    List<String> consumes,
    boolean optional,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> hints,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ParameterGroup> groups,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<UrlShorthand> urlShorthands,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean summary) {
  public OperationDescriptor {
    parameters = List.copyOf(parameters);
    consumes = List.copyOf(consumes);
    hints = List.copyOf(hints);
    groups = List.copyOf(groups);
    urlShorthands = List.copyOf(urlShorthands);
    if (parameters.stream().map(ParameterDescriptor::name).distinct().count() < parameters.size()) {
      throw new IllegalArgumentException("operation " + name + " declares a parameter twice");
    }
    for (UrlShorthand shorthand : urlShorthands) {
      for (String argument : shorthand.arguments()) {
        if (!consumes.contains(argument)) {
          throw new IllegalArgumentException(
              "operation "
                  + name
                  + "'s URL option "
                  + shorthand.names().getFirst()
                  + " sets "
                  + argument
                  + ", which it does not consume");
        }
      }
    }
    for (ParameterGroup group : groups) {
      for (String member : group.names()) {
        if (parameters.stream().noneMatch(p -> p.name().equals(member))) {
          throw new IllegalArgumentException(
              "operation " + name + " groups parameter " + member + " it does not declare");
        }
      }
    }
    for (String option : consumes) {
      if (parameters.stream().noneMatch(p -> p.name().equals(option))) {
        throw new IllegalArgumentException(
            "operation " + name + " consumes target option " + option + " but has no parameter");
      }
    }
    for (String option : hints) {
      if (parameters.stream().noneMatch(p -> p.name().equals(option))) {
        throw new IllegalArgumentException(
            "operation " + name + " is hinted target option " + option + " but has no parameter");
      }
    }
  }

  /** Returns the parameter called {@code name}, if the operation declares one. */
  public Optional<ParameterDescriptor> parameter(String name) {
    return parameters.stream().filter(p -> p.name().equals(name)).findFirst();
  }
}
