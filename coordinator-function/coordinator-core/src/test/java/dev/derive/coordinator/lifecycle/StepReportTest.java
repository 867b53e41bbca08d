package dev.derive.coordinator.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.plan.DerivativeFingerprint;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepReportTest {
  private static final String JOB = "b".repeat(64);

  private static StepMessage step(int index, int count, ObjectRef output) {
    return new StepMessage(
        JOB,
        index,
        count,
        "image",
        List.of(),
        ObjectRef.of("source", "in.jpg"),
        "image/jpeg",
        output,
        "image/png",
        "trace");
  }

  @Test
  void aSuccessSaysWhetherItWasTheLastStepByItsStepCount() {
    ObjectRef intermediate = ObjectRef.of("derivatives", "intermediates/x");
    StepReport first = StepReport.of(StepResult.success(step(0, 2, intermediate), 5, 1, 2, false));
    StepReport last =
        StepReport.of(
            StepResult.success(
                step(1, 2, ObjectRef.of("derivatives", DerivativeFingerprint.objectKey(JOB))),
                7,
                1,
                2,
                false));
    assertThat(first)
        .isInstanceOfSatisfying(
            StepReport.Succeeded.class, s -> assertThat(s.lastStep()).isFalse());
    assertThat(last)
        .isInstanceOfSatisfying(StepReport.Succeeded.class, s -> assertThat(s.lastStep()).isTrue());
  }

  @Test
  void aSuccessOfASenderWithoutStepCountIsTheLastStepWhenItWroteTheDerivative() {
    ObjectRef derivative = ObjectRef.of("derivatives", DerivativeFingerprint.objectKey(JOB));
    StepResult current = StepResult.success(step(0, 1, derivative), 5, 1, 2, false);
    StepResult older =
        new StepResult(
            JOB, 0, "image", true, derivative, 5, null, 1, 2, false, "trace", 1, null, null);
    assertThat(older.stepCount()).isZero();
    assertThat(((StepReport.Succeeded) StepReport.of(older)).lastStep()).isTrue();
    assertThat(((StepReport.Succeeded) StepReport.of(current)).lastStep()).isTrue();
  }

  @Test
  void startsAndFailuresReadAsTheirOwnKinds() {
    StepMessage message = step(0, 1, ObjectRef.of("derivatives", "intermediates/y"));
    assertThat(StepReport.of(StepResult.started(message, 3)))
        .isInstanceOf(StepReport.Started.class);
    StepError error = new StepError("corrupt-input", "not a JPEG", false);
    assertThat(StepReport.of(StepResult.failure(message, error, 1, 2)))
        .isEqualTo(
            new StepReport.Failed(
                new StepReport.Origin(JOB, null, 0, "image", 0, java.time.Instant.ofEpochMilli(1)),
                error,
                java.time.Instant.ofEpochMilli(2)));
  }
}
