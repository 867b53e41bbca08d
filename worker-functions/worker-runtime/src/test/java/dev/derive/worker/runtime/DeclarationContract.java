package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.Conversion;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import dev.derive.protocol.capability.ParameterGroup;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * The contract between a worker and its declaration (issue 27): the runtime accepts exactly what
 * the declaration allows. For every declared operation and parameter, values at the bounds (each
 * allowed value, each boolean, the default) are accepted and reach the transformer; values just
 * outside (one below the minimum, one above the maximum, off the step, an unlisted string, a string
 * off the pattern, a value of another type), a missing required parameter, an undeclared parameter,
 * an undeclared operation and operations out of the declared order are refused {@code invalid-step}
 * by the runtime, and the transformer never runs. Each case goes through the real runtime path
 * ({@link StepWorker}) with a transformer that only records that it was called.
 *
 * <p>Each worker module runs it on its own declaration (a {@code DeclarationContractTest}), so a
 * new capability is covered as soon as it declares something.
 */
public final class DeclarationContract {
  private final CapabilityDescriptor declaration;
  private final Map<String, String> patternSamples;

  private DeclarationContract(
      CapabilityDescriptor declaration, Map<String, String> patternSamples) {
    this.declaration = declaration;
    this.patternSamples = Map.copyOf(patternSamples);
  }

  /**
   * The contract's cases for {@code declaration}.
   *
   * @param patternSamples a value matching each declared pattern (its other bounds are derived)
   */
  public static Stream<DynamicTest> of(
      CapabilityDescriptor declaration, Map<String, String> patternSamples) {
    return new DeclarationContract(declaration, patternSamples).cases().stream();
  }

  /**
   * The contract's cases for the one declaration on the class path: the worker module's own.
   *
   * @param patternSamples a value matching each declared pattern
   */
  public static Stream<DynamicTest> ofThisWorker(Map<String, String> patternSamples) {
    return of(
        CapabilityDeclarations.ofThisWorker(DeclarationContract.class.getClassLoader()),
        patternSamples);
  }

  private List<DynamicTest> cases() {
    List<DynamicTest> cases = new ArrayList<>();
    for (OperationDescriptor operation : declaration.operations()) {
      Conversion conversion = conversionOf(operation.name());
      Map<String, Object> base = minimal(operation);
      String op = operation.name();
      cases.add(accepted(op + " with its required parameters", conversion, op, base));
      for (ParameterDescriptor parameter : operation.parameters()) {
        String where = op + "." + parameter.name();
        if (parameter.name().equals(DeclaredStep.MEDIA_TYPE)) {
          cases.add(
              accepted(
                  where + " = " + conversion.target(),
                  conversion,
                  op,
                  with(operation, base, parameter.name(), conversion.target())));
          cases.add(
              refused(
                  where + " = an undeclared type",
                  conversion,
                  op,
                  with(operation, base, parameter.name(), "application/x-undeclared")));
          continue;
        }
        for (Object value : accepted(parameter)) {
          cases.add(
              accepted(
                  where + " = " + value,
                  conversion,
                  op,
                  with(operation, base, parameter.name(), value)));
        }
        for (Object value : refused(parameter)) {
          cases.add(
              refused(
                  where + " = " + value,
                  conversion,
                  op,
                  with(operation, base, parameter.name(), value)));
        }
        if (parameter.mustBeGiven()) {
          Map<String, Object> without = new LinkedHashMap<>(base);
          without.remove(parameter.name());
          cases.add(refused(where + " missing", conversion, op, without));
        }
      }
      Map<String, Object> undeclared = new LinkedHashMap<>(base);
      undeclared.put("undeclared", 1);
      cases.add(refused(op + " with an undeclared parameter", conversion, op, undeclared));
    }
    Conversion first = declaration.conversions().getFirst();
    cases.add(
        DynamicTest.dynamicTest(
            "an undeclared operation is refused",
            () ->
                assertRefused(
                    step(first, List.of(new Operation("undeclared-operation", Map.of()))))));
    for (Conversion conversion : declaration.conversions()) {
      List<String> ops = conversion.operations();
      if (ops.size() < 2) {
        continue;
      }
      String later = ops.get(ops.size() - 1);
      String earlier = ops.get(0);
      cases.add(
          DynamicTest.dynamicTest(
              later + " before " + earlier + " (out of the declared order) is refused",
              () ->
                  assertRefused(
                      step(
                          conversion,
                          List.of(
                              new Operation(later, minimal(operation(later))),
                              new Operation(earlier, minimal(operation(earlier))))))));
      break;
    }
    return cases;
  }

  private DynamicTest accepted(
      String name, Conversion conversion, String operation, Map<String, Object> params) {
    return DynamicTest.dynamicTest(
        name + " is accepted",
        () -> assertAccepted(step(conversion, List.of(new Operation(operation, params)))));
  }

  private DynamicTest refused(
      String name, Conversion conversion, String operation, Map<String, Object> params) {
    return DynamicTest.dynamicTest(
        name + " is refused",
        () -> assertRefused(step(conversion, List.of(new Operation(operation, params)))));
  }

  private void assertAccepted(StepMessage step) throws IOException {
    Run run = run(step);
    assertThat(run.failure()).as("the runtime's answer to %s", step.operations()).isNull();
    assertThat(run.transforms()).as("transformer runs").isEqualTo(1);
  }

  private void assertRefused(StepMessage step) throws IOException {
    Run run = run(step);
    assertThat(run.failure()).as("the runtime's answer to %s", step.operations()).isNotNull();
    assertThat(run.failure().error().type()).isEqualTo(StepErrorTypes.INVALID_STEP);
    assertThat(run.transforms()).as("transformer runs").isZero();
  }

  private record Run(StepResult failure, int transforms) {}

  /** Runs {@code step} through a {@link StepWorker} whose transformer only counts its calls. */
  private Run run(StepMessage step) throws IOException {
    AtomicInteger transforms = new AtomicInteger();
    StepTransformer counting =
        new StepTransformer() {
          @Override
          public void transform(DeclaredStep declared, Path input, Path output) throws IOException {
            transforms.incrementAndGet();
            Files.writeString(output, "made");
          }

          @Override
          public void probe(Path scratch) {}
        };
    InMemoryObjectStore store = new InMemoryObjectStore();
    store.put(step.input(), "input".getBytes(StandardCharsets.UTF_8));
    List<StepResult> published = new ArrayList<>();
    Path temp = Files.createTempDirectory("declaration-contract");
    try {
      StepWorker worker =
          new StepWorker(
              declaration,
              counting,
              store,
              published::add,
              new WorkerSettings("http://queue", 1_000_000, 1_000, temp, 1),
              new StepLog(
                  new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)),
              Clock.systemUTC(),
              reason -> {});
      worker.process(
          List.of(new StepDelivery("m", MessageCodec.encode(step), 1, null, null)), () -> 60_000);
    } finally {
      StepDirectories.deleteTree(temp);
    }
    StepResult failure =
        published.stream().filter(r -> !r.isStarted() && !r.succeeded()).findFirst().orElse(null);
    return new Run(failure, transforms.get());
  }

  private StepMessage step(Conversion conversion, List<Operation> operations) {
    return new StepMessage(
        "c".repeat(64),
        0,
        1,
        declaration.name(),
        operations,
        ObjectRef.of("sources", "contract/input"),
        conversion.source(),
        ObjectRef.of("derivatives", "derivatives/" + "c".repeat(64)),
        conversion.target(),
        "contract");
  }

  private Conversion conversionOf(String operation) {
    return declaration.conversions().stream()
        .filter(c -> c.operations().contains(operation))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no conversion applies " + operation));
  }

  private OperationDescriptor operation(String name) {
    return declaration.operation(name).orElseThrow();
  }

  /** The operation's required parameters, and one of each group that needs at least one. */
  private Map<String, Object> minimal(OperationDescriptor operation) {
    Map<String, Object> params = new LinkedHashMap<>();
    for (ParameterDescriptor parameter : operation.parameters()) {
      if (parameter.mustBeGiven()) {
        params.put(parameter.name(), valid(parameter));
      }
    }
    for (ParameterGroup group : operation.groups()) {
      if (group.rule() == ParameterGroup.Rule.AT_LEAST_ONE
          && group.names().stream().noneMatch(params::containsKey)) {
        String first = group.names().getFirst();
        params.put(first, valid(operation.parameter(first).orElseThrow()));
      }
    }
    return params;
  }

  /** {@code base} with {@code name} set, and its groups kept: all-or-none partners, no rival. */
  private Map<String, Object> with(
      OperationDescriptor operation, Map<String, Object> base, String name, Object value) {
    Map<String, Object> params = new LinkedHashMap<>(base);
    params.put(name, value);
    for (ParameterGroup group : operation.groups()) {
      if (!group.names().contains(name)) {
        continue;
      }
      for (String other : group.names()) {
        if (other.equals(name)) {
          continue;
        }
        switch (group.rule()) {
          case ALL_OR_NONE ->
              params.putIfAbsent(other, valid(operation.parameter(other).orElseThrow()));
          case AT_MOST_ONE -> params.remove(other);
          case AT_LEAST_ONE -> {}
        }
      }
    }
    return params;
  }

  /** A value {@code parameter} allows. */
  private Object valid(ParameterDescriptor parameter) {
    return accepted(parameter).getFirst();
  }

  /** The values at the bounds of what {@code parameter} allows. */
  private List<Object> accepted(ParameterDescriptor parameter) {
    List<Object> values = new ArrayList<>();
    switch (parameter.type()) {
      case ParameterDescriptor.INTEGER -> {
        int min = parameter.minimum() == null ? 0 : parameter.minimum();
        values.add(min);
        if (parameter.maximum() != null) {
          values.add(parameter.maximum());
        }
        if (parameter.multipleOf() != null) {
          values.add(min + parameter.multipleOf());
        }
      }
      case ParameterDescriptor.BOOLEAN -> values.addAll(List.of(true, false));
      default -> {
        if (!parameter.allowedValues().isEmpty()) {
          values.addAll(parameter.allowedValues());
        } else if (parameter.pattern() != null) {
          String sample = patternSamples.get(parameter.pattern());
          if (sample == null) {
            throw new AssertionError(
                "no sample value for the pattern " + parameter.pattern() + " of " + parameter);
          }
          values.add(sample);
        } else {
          values.add("any text");
        }
      }
    }
    return values;
  }

  /** The values just outside what {@code parameter} allows. */
  private List<Object> refused(ParameterDescriptor parameter) {
    List<Object> values = new ArrayList<>();
    switch (parameter.type()) {
      case ParameterDescriptor.INTEGER -> {
        if (parameter.minimum() != null) {
          values.add(parameter.minimum() - 1);
        }
        if (parameter.maximum() != null) {
          values.add(parameter.maximum() + 1);
        }
        if (parameter.multipleOf() != null && parameter.multipleOf() > 1) {
          values.add(parameter.minimum() + 1);
        }
        values.add("1");
        values.add(1.5);
      }
      case ParameterDescriptor.BOOLEAN -> values.addAll(List.of("true", 1));
      default -> {
        if (!parameter.allowedValues().isEmpty()) {
          values.add("not-" + parameter.allowedValues().getFirst());
        }
        if (parameter.pattern() != null) {
          values.add(patternSamples.getOrDefault(parameter.pattern(), "") + "~");
        }
        values.add(7);
      }
    }
    return values;
  }
}
