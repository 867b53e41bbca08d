package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.protocol.message.StepMessage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Binding a step to its declaration: what the transformer is handed, and what it never is. */
class DeclaredStepTest {
  private static final CapabilityDescriptor DECLARATION = TestDeclarations.everyKind();

  private static StepMessage step(String output, Operation... operations) {
    return new StepMessage(
        "d".repeat(64),
        0,
        1,
        DECLARATION.name(),
        List.of(operations),
        ObjectRef.of("s", "in"),
        "text/plain",
        ObjectRef.of("d", "out"),
        output,
        "t");
  }

  @Test
  void theTransformerGetsTypedParametersWithTheDeclaredDefaults() {
    DeclaredStep bound =
        DeclaredStep.bind(
            DECLARATION,
            step("text/csv", new Operation("turn", Map.of("angle", 180.0, "mirror", true))));

    assertThat(bound.operations())
        .extracting(Parameters::operation)
        .containsExactly("turn", "write");
    Parameters turn = bound.operation("turn").orElseThrow();
    assertThat(turn.integer("angle")).isEqualTo(180);
    assertThat(turn.bool("mirror")).isTrue();
    assertThat(turn.optionalString("colour")).isEmpty();
    Parameters write = bound.operation("write").orElseThrow();
    assertThat(write.integer("width")).isEqualTo(72);
    assertThat(write.has("width")).isFalse();
    assertThat(write.string("mediaType")).as("the type the step writes").isEqualTo("text/csv");
    assertThat(bound.outputMediaType()).isEqualTo("text/csv");
  }

  @Test
  void aDefaultDeclaredForTheStepsOutputTypeStandsInForTheGeneralOne() {
    assertThat(DeclaredStep.bind(DECLARATION, step("text/plain")).only().integer("width"))
        .isEqualTo(60);
    assertThat(DeclaredStep.bind(DECLARATION, step("text/csv")).only().integer("width"))
        .isEqualTo(72);
  }

  @Test
  void readingAParameterTheOperationDoesNotDeclareIsAProgrammingError() {
    Parameters write = DeclaredStep.bind(DECLARATION, step("text/plain")).only();

    assertThatThrownBy(() -> write.integer("height"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("declares no parameter height");
    assertThatThrownBy(() -> write.string("width"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is declared integer");
  }

  @Test
  void aRefusalSaysWhatIsWrongInWords() {
    assertRefused(
        step("text/plain", new Operation("cut", Map.of("side", 501))),
        "every-kind cut side must be between 1 and 500, got 501");
    assertRefused(
        step("text/plain", new Operation("cut", Map.of("side", 5, "left", 1))),
        "every-kind cut takes all of left, top or none");
    assertRefused(
        step("text/plain", new Operation("turn", Map.of("angle", 135))),
        "every-kind turn angle must be 90 or more in steps of 90 up to 270, got 135");
    assertRefused(
        step("text/plain", new Operation("turn", Map.of())),
        "every-kind turn needs at least one of angle, colour");
    assertRefused(
        step("text/html", new Operation("write", Map.of())),
        "the every-kind capability does not write text/html from text/plain");
    assertRefused(
        step("text/csv", new Operation("write", Map.of("mediaType", "text/plain"))),
        "write writes text/plain but the step writes text/csv");
  }

  @Test
  void aStepForAnotherCapabilityIsRefused() {
    StepMessage other =
        new StepMessage(
            "d".repeat(64),
            0,
            1,
            "other",
            List.of(),
            ObjectRef.of("s", "in"),
            "text/plain",
            ObjectRef.of("d", "out"),
            "text/plain",
            "t");

    assertRefused(other, "step for capability 'other' sent to the 'every-kind' worker");
  }

  private static void assertRefused(StepMessage step, String detail) {
    assertThatThrownBy(() -> DeclaredStep.bind(DECLARATION, step))
        .isInstanceOfSatisfying(
            PermanentStepFailure.class,
            f -> {
              assertThat(f.type()).isEqualTo(StepErrorTypes.INVALID_STEP);
              assertThat(f.detail()).isEqualTo(detail);
            });
  }
}
