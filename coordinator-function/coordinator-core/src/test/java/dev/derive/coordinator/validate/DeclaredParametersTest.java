package dev.derive.coordinator.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.derive.coordinator.Declarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.capability.OperationDescriptor;
import dev.derive.protocol.capability.ParameterDescriptor;
import dev.derive.protocol.capability.ParameterGroup;
import dev.derive.protocol.capability.RequestSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every parameter each capability declares, and every target option, round-tripped through the
 * generated schema and {@link RequestValidator}: its default and its bounds (or each allowed value)
 * are accepted and come back as given; just outside the bounds, off its step, an unlisted value, a
 * string not matching its pattern and a value of the wrong type are refused with a violation at
 * that parameter's pointer. Cases are made from the declarations, so a new parameter is covered as
 * soon as it is declared.
 */
class DeclaredParametersTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final RequestValidator VALIDATOR = new RequestValidator(Declarations.ALL);

  /** One value to try at one place, and whether it must be accepted. */
  record Case(String where, String parameter, JsonNode value, boolean accepted, Executable check) {
    @Override
    public String toString() {
      return where + " " + parameter + " = " + value + (accepted ? " accepted" : " refused");
    }
  }

  static Stream<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (CapabilityDescriptor capability : Declarations.ALL) {
      for (OperationDescriptor operation : capability.operations()) {
        for (ParameterDescriptor parameter : operation.parameters()) {
          String where = capability.name() + "." + operation.name();
          for (JsonNode value : accepted(parameter)) {
            cases.add(stepCase(where, capability, operation, parameter, value, true));
          }
          for (JsonNode value : refused(parameter)) {
            cases.add(stepCase(where, capability, operation, parameter, value, false));
          }
        }
      }
    }
    for (ParameterDescriptor option : Declarations.TARGET_OPTIONS) {
      for (JsonNode value : accepted(option)) {
        cases.add(targetCase(option, value, true));
      }
      for (JsonNode value : refused(option)) {
        cases.add(targetCase(option, value, false));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void everyDeclaredParameterRoundTrips(Case c) throws Throwable {
    c.check().execute();
  }

  @Test
  void everyParameterHasCases() {
    long parameters =
        Declarations.ALL.stream()
                .flatMap(c -> c.operations().stream())
                .mapToLong(o -> o.parameters().size())
                .sum()
            + Declarations.TARGET_OPTIONS.size();
    assertThat(cases().map(c -> c.where() + "/" + c.parameter()).distinct().count())
        .isEqualTo(parameters);
  }

  @Test
  void theGeneratedSchemaIsAValidDraft202012Schema() {
    List<Error> errors =
        SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(SchemaLocation.of(RequestSchema.DIALECT))
            .validate(VALIDATOR.schema());

    assertThat(errors).isEmpty();
  }

  private static List<JsonNode> accepted(ParameterDescriptor p) {
    List<JsonNode> values = new ArrayList<>();
    if (p.defaultValue() != null) {
      values.add(JSON.valueToTree(p.defaultValue()));
    }
    switch (p.type()) {
      case "integer" -> {
        values.add(JSON.valueToTree(p.minimum()));
        values.add(JSON.valueToTree(p.maximum()));
      }
      case "boolean" -> {
        values.add(JSON.getNodeFactory().booleanNode(true));
        values.add(JSON.getNodeFactory().booleanNode(false));
      }
      case "string" -> {
        p.allowedValues().forEach(v -> values.add(JSON.getNodeFactory().textNode(v)));
        // a pattern's parameter declares the values it takes (CapabilityDeclarations checks)
        p.examples().forEach(v -> values.add(JSON.getNodeFactory().textNode(v)));
      }
      default -> throw new AssertionError("undeclared type " + p.type());
    }
    return values;
  }

  private static List<JsonNode> refused(ParameterDescriptor p) {
    List<JsonNode> values = new ArrayList<>();
    switch (p.type()) {
      case "integer" -> {
        values.add(JSON.valueToTree(p.minimum() - 1));
        values.add(JSON.valueToTree(p.maximum() + 1));
        values.add(JSON.valueToTree(p.minimum() + 0.5));
        values.add(JSON.getNodeFactory().textNode(String.valueOf(p.minimum())));
        if (p.multipleOf() != null) {
          values.add(JSON.valueToTree(p.minimum() + 1)); // off the step, within the bounds
        }
      }
      case "boolean" -> {
        values.add(JSON.getNodeFactory().textNode("true"));
        values.add(JSON.valueToTree(1));
      }
      case "string" -> {
        values.add(JSON.valueToTree(1));
        if (!p.allowedValues().isEmpty()) {
          values.add(JSON.getNodeFactory().textNode("no-such-value"));
        }
        if (p.pattern() != null) {
          values.add(JSON.getNodeFactory().textNode("no-such-value"));
        }
      }
      default -> throw new AssertionError("undeclared type " + p.type());
    }
    return values;
  }

  private static Case stepCase(
      String where,
      CapabilityDescriptor capability,
      OperationDescriptor operation,
      ParameterDescriptor parameter,
      JsonNode value,
      boolean accepted) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("source").put("key", "photos/cat.jpg");
    ObjectNode step = body.putArray("steps").addObject();
    step.put("capability", capability.name()).put("operation", operation.name());
    ObjectNode params = step.putObject("params");
    validBaseline(operation, parameter, params);
    params.set(parameter.name(), value);
    return new Case(
        where,
        parameter.name(),
        value,
        accepted,
        check(
            body,
            "/steps/0/params/" + parameter.name(),
            accepted,
            request ->
                assertThat(request.steps().getFirst().params())
                    .containsEntry(parameter.name(), javaValue(value))));
  }

  private static Case targetCase(ParameterDescriptor option, JsonNode value, boolean accepted) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("source").put("key", "photos/cat.jpg");
    body.putObject("target").put("mediaType", "image/png").set(option.name(), value);
    return new Case(
        "target",
        option.name(),
        value,
        accepted,
        check(
            body,
            "/target/" + option.name(),
            accepted,
            request ->
                assertThat(request.target().params())
                    .containsEntry(option.name(), javaValue(value))));
  }

  /**
   * Gives {@code params} what the operation needs besides {@code tried}: its required parameters
   * and what its groups ask (one of an at-least-one group, the rest of an all-or-none group).
   */
  private static void validBaseline(
      OperationDescriptor operation, ParameterDescriptor tried, ObjectNode params) {
    for (ParameterDescriptor p : operation.parameters()) {
      if (p.mustBeGiven() && !p.name().equals(tried.name())) {
        params.set(p.name(), accepted(p).getFirst());
      }
    }
    for (ParameterGroup group : operation.groups()) {
      List<String> names = group.names();
      switch (group.rule()) {
        case AT_LEAST_ONE -> {
          if (names.stream().noneMatch(n -> params.has(n) || n.equals(tried.name()))) {
            params.set(
                names.getFirst(), accepted(operation.parameter(names.getFirst()).get()).getFirst());
          }
        }
        case ALL_OR_NONE -> {
          if (names.contains(tried.name())) {
            names.stream()
                .filter(n -> !n.equals(tried.name()))
                .forEach(n -> params.set(n, accepted(operation.parameter(n).get()).getFirst()));
          }
        }
        case AT_MOST_ONE -> {
          // the baseline adds none of them; the tried one alone is allowed
        }
      }
    }
  }

  private static Executable check(
      ObjectNode body, String pointer, boolean accepted, Consumer<DerivativeRequest> returned) {
    return () -> {
      if (accepted) {
        returned.accept(VALIDATOR.validate(body));
      } else {
        InvalidRequestException e =
            catchThrowableOfType(InvalidRequestException.class, () -> VALIDATOR.validate(body));
        assertThat(e).as("refused: %s", body).isNotNull();
        assertThat(e.violations()).extracting(Violation::pointer).containsExactly(pointer);
      }
    };
  }

  private static Object javaValue(JsonNode value) {
    return value.isInt()
        ? value.intValue()
        : value.isBoolean() ? value.booleanValue() : value.textValue();
  }
}
