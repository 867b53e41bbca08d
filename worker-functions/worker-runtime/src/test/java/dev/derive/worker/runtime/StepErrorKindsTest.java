package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.protocol.message.StepErrorTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which step errors a new request may overcome (issue 9, item 7). */
class StepErrorKindsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        StepErrorTypes.TIMEOUT,
        StepErrorTypes.INPUT_MISSING,
        StepErrorTypes.SOURCE_CHANGED,
        StepErrorTypes.WORKER_FAILED,
        StepErrorTypes.DEAD_LETTERED
      })
  void failuresOfTheExecutionNotOfTheInputAreRetryable(String type) {
    assertThat(StepErrorKinds.retryable(type)).isTrue();
    assertThat(new PermanentStepFailure(type, "why").toStepError().retryable()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        StepErrorTypes.CORRUPT_INPUT,
        StepErrorTypes.UNSUPPORTED_INPUT,
        StepErrorTypes.PASSWORD_REQUIRED,
        StepErrorTypes.INPUT_TOO_LARGE,
        StepErrorTypes.OUTPUT_TOO_LARGE,
        StepErrorTypes.INVALID_STEP
      })
  void failuresOfTheInputOrTheOperationsArePermanent(String type) {
    assertThat(StepErrorKinds.retryable(type)).isFalse();
    assertThat(new PermanentStepFailure(type, "why").toStepError().retryable()).isFalse();
  }

  @Test
  void anUnknownKindIsPermanent() {
    assertThat(StepErrorKinds.retryable("capability-specific")).isFalse();
    assertThat(StepErrorKinds.retryable(null)).isFalse();
  }

  @Test
  void theReportedErrorKeepsKindAndDetail() {
    var error =
        new PermanentStepFailure(StepErrorTypes.CORRUPT_INPUT, "cannot read it").toStepError();

    assertThat(error.type()).isEqualTo(StepErrorTypes.CORRUPT_INPUT);
    assertThat(error.detail()).isEqualTo("cannot read it");
  }
}
