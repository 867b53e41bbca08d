package dev.derive.worker.runtime;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.Conversion;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import dev.derive.protocol.capability.ParameterGroup;
import dev.derive.protocol.capability.ParameterValues;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A step bound to its capability's declaration: what a transformer is handed. Binding checks the
 * step the way the coordinator's request schema checks requests, so a step the declaration does not
 * allow never reaches the transformer and fails {@code invalid-step} with a sentence naming what is
 * wrong:
 *
 * <ul>
 *   <li>the step is for this capability and writes a media type it declares (from the input's type,
 *       where the capability declares reading it);
 *   <li>each operation is declared, given at most once, in the declared order (the order a fused
 *       step applies them), and is one the conversion applies;
 *   <li>each parameter is declared, of its type, within its bounds and step, one of its allowed
 *       values and matching its pattern; required ones are given; the rules over several ({@link
 *       ParameterGroup}) hold; a {@code mediaType} parameter names the type the step writes.
 * </ul>
 *
 * <p>The operations the conversion always applies are added with their defaults when the step
 * leaves them out, as the planner does, so a transformer sees the same operations either way.
 */
// Over 300 lines because each rule of the schema sits by its sentence.
public final class DeclaredStep {
  /** The parameter that names a step's output media type (the planner sets it so too). */
  public static final String MEDIA_TYPE = "mediaType";

  private final StepMessage message;
  private final String inputMediaType;
  private final String outputMediaType;
  private final List<Parameters> operations;
  private final Map<String, Path> objects;

  private DeclaredStep(
      StepMessage message,
      String inputMediaType,
      String outputMediaType,
      List<Parameters> operations,
      Map<String, Path> objects) {
    this.message = message;
    this.inputMediaType = inputMediaType;
    this.outputMediaType = outputMediaType;
    this.operations = List.copyOf(operations);
    this.objects = Map.copyOf(objects);
  }

  /**
   * This step with the other objects it reads ({@link StepMessage#objects}) downloaded to {@code
   * files}, by the name of the parameter that names each (the step executor after downloading them;
   * the bench, which has them as local files).
   */
  public DeclaredStep withObjects(Map<String, Path> files) {
    return new DeclaredStep(message, inputMediaType, outputMediaType, operations, files);
  }

  /**
   * The local file of the other object the parameter {@code name} names (one declared {@code
   * sourceObject}, e.g. a watermark), fetched beside the input; empty if the step names none.
   */
  public Optional<Path> object(String name) {
    return Optional.ofNullable(objects.get(name));
  }

  /**
   * Binds {@code step} to {@code declaration}.
   *
   * @throws PermanentStepFailure {@code invalid-step} when the declaration does not allow the step
   */
  public static DeclaredStep bind(CapabilityDescriptor declaration, StepMessage step) {
    String name = declaration.name();
    if (!name.equals(step.capability())) {
      throw invalid(
          "step for capability '" + step.capability() + "' sent to the '" + name + "' worker");
    }
    List<String> order = declaration.operations().stream().map(OperationDescriptor::name).toList();
    int at = -1;
    for (Operation operation : step.operations()) {
      int index = order.indexOf(operation.operation());
      if (index < 0) {
        throw invalid(
            "the " + name + " capability has no operation '" + operation.operation() + "'");
      }
      if (index == at) {
        throw invalid("the operation " + operation.operation() + " is given twice");
      }
      if (index < at) {
        throw invalid(
            "the operations of a "
                + name
                + " step come in the declared order "
                + order
                + "; "
                + operation.operation()
                + " is out of it");
      }
      at = index;
    }
    String input = essence(step.inputMediaType());
    String output = essence(step.outputMediaType());
    if (output == null) {
      output =
          step.operations().stream()
              .map(o -> o.params().get(MEDIA_TYPE))
              .filter(v -> v instanceof String)
              .map(v -> essence((String) v))
              .findFirst()
              .orElse(null);
    }
    Conversion conversion = conversion(declaration, step, input, output);
    List<Parameters> bound = new ArrayList<>();
    for (String operationName : conversion.operations()) {
      OperationDescriptor declared = declaration.operation(operationName).orElseThrow();
      Optional<Operation> given =
          step.operations().stream().filter(o -> o.operation().equals(operationName)).findFirst();
      if (given.isEmpty() && declared.optional()) {
        continue;
      }
      Map<String, Object> params =
          parameters(name, declared, given.map(Operation::params).orElse(Map.of()));
      if (declared.parameter(MEDIA_TYPE).isPresent()) {
        Object written = params.putIfAbsent(MEDIA_TYPE, conversion.target());
        if (written != null && !essence(written.toString()).equals(conversion.target())) {
          throw invalid(
              operationName + " writes " + written + " but the step writes " + conversion.target());
        }
      }
      bound.add(new Parameters(declared, params, conversion.target()));
    }
    return new DeclaredStep(step, input, conversion.target(), bound, Map.of());
  }

  /**
   * Binds {@code step} to the declaration on this class path of the capability it names: what tests
   * and probes that run one worker module use (its one {@value CapabilityDeclarations#RESOURCE}).
   *
   * @throws PermanentStepFailure {@code invalid-step} when the declaration does not allow the step
   * @throws dev.derive.protocol.capability.InvalidDeclarationException if the class path holds no
   *     valid declaration of it
   */
  public static DeclaredStep onClassPath(StepMessage step, ClassLoader loader) {
    CapabilityDescriptor declaration =
        CapabilityDeclarations.onClassPath(loader).stream()
            .filter(d -> d.name().equals(step.capability()))
            .findFirst()
            .orElseThrow(
                () ->
                    new dev.derive.protocol.capability.InvalidDeclarationException(
                        CapabilityDeclarations.RESOURCE,
                        "no declaration of the capability " + step.capability() + " on the path"));
    return bind(declaration, step);
  }

  /** The step as it was sent. */
  public StepMessage message() {
    return message;
  }

  /** The media type the step reads (its essence), or {@code null} if the step names none. */
  public String inputMediaType() {
    return inputMediaType;
  }

  /** The media type the step writes (its essence): the step's, else its conversion's. */
  public String outputMediaType() {
    return outputMediaType;
  }

  /** The operations to apply, in the declared order, each with its parameters. */
  public List<Parameters> operations() {
    return operations;
  }

  /** The parameters of the operation {@code name}, if the step applies it. */
  public Optional<Parameters> operation(String name) {
    return operations.stream().filter(o -> o.operation().equals(name)).findFirst();
  }

  /**
   * The step's one operation, for a capability whose conversions each apply one (the declaration
   * guarantees there is exactly one).
   *
   * @throws IllegalStateException if the step applies several (a declaration with a conversion of
   *     several operations read by a transformer that expects one)
   */
  public Parameters only() {
    if (operations.size() != 1) {
      throw new IllegalStateException(
          "the step applies " + operations.size() + " operations, not one: " + operations);
    }
    return operations.getFirst();
  }

  /**
   * The conversion writing {@code output} that applies the step's operations: of those reading
   * {@code input} if the capability declares any, else of all. What the input is stays the
   * transformer's to judge (it reads the bytes, and refuses a format it cannot read as {@code
   * unsupported-input}, whatever the coordinator detected).
   */
  private static Conversion conversion(
      CapabilityDescriptor declaration, StepMessage step, String input, String output) {
    List<String> names = step.operations().stream().map(Operation::operation).toList();
    String read = declaration.reads().contains(input) ? input : null;
    boolean written = false;
    for (Conversion conversion : declaration.conversions()) {
      boolean reads = read == null || conversion.source().equals(read);
      boolean writes = output == null || conversion.target().equals(output);
      written |= writes && reads;
      if (reads && writes && conversion.operations().containsAll(names)) {
        return conversion;
      }
    }
    String name = declaration.name();
    String from = read == null ? "" : " from " + read;
    if (!written) {
      throw invalid("the " + name + " capability does not write " + output + from);
    }
    throw invalid(
        "the " + name + " capability does not apply " + names + " writing " + output + from);
  }

  /** {@code given}, checked against {@code operation}'s parameters. */
  private static Map<String, Object> parameters(
      String capability, OperationDescriptor operation, Map<String, Object> given) {
    String where = capability + " " + operation.name();
    Map<String, Object> checked = new LinkedHashMap<>();
    for (Map.Entry<String, Object> parameter : given.entrySet()) {
      if (parameter.getValue() == null) {
        continue; // absent, as in a request
      }
      ParameterDescriptor declared =
          operation
              .parameter(parameter.getKey())
              .orElseThrow(() -> invalid(where + " has no parameter '" + parameter.getKey() + "'"));
      String problem = ParameterValues.problem(declared, parameter.getValue());
      if (problem != null) {
        throw invalid(where + " " + declared.name() + " " + problem);
      }
      Object value = parameter.getValue();
      checked.put(
          declared.name(),
          declared.type().equals(ParameterDescriptor.INTEGER)
              ? ParameterValues.wholeNumber(value)
              : value);
    }
    for (ParameterDescriptor declared : operation.parameters()) {
      if (declared.mustBeGiven() && !checked.containsKey(declared.name())) {
        throw invalid(where + " needs " + declared.name());
      }
    }
    for (ParameterGroup group : operation.groups()) {
      long present = group.names().stream().filter(checked::containsKey).count();
      String names = String.join(", ", group.names());
      switch (group.rule()) {
        case AT_LEAST_ONE -> {
          if (present == 0) {
            throw invalid(where + " needs at least one of " + names);
          }
        }
        case ALL_OR_NONE -> {
          if (present != 0 && present != group.names().size()) {
            throw invalid(where + " takes all of " + names + " or none");
          }
        }
        case AT_MOST_ONE -> {
          if (present > 1) {
            throw invalid(where + " takes at most one of " + names);
          }
        }
      }
    }
    return checked;
  }

  private static String essence(String mediaType) {
    if (mediaType == null) {
      return null;
    }
    try {
      return MediaTypes.essence(mediaType);
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
  }

  private static PermanentStepFailure invalid(String detail) {
    return new PermanentStepFailure(StepErrorTypes.INVALID_STEP, detail);
  }

  @Override
  public String toString() {
    return message.capability() + " " + operations;
  }
}
