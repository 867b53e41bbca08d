package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerSettingsTest {
  private static final String QUEUE = "http://queue";

  @Test
  void stepMaxReceiveCountIsReadFromTheEnvironment() {
    WorkerSettings settings =
        WorkerSettings.fromEnvironment(
            Map.of("STEP_RESULTS_QUEUE_URL", QUEUE, "STEP_MAX_RECEIVE_COUNT", "3"));

    assertThat(settings.maxReceiveCount()).isEqualTo(3);
    assertThat(settings.lastDelivery(2)).isFalse();
    assertThat(settings.lastDelivery(3)).isTrue();
    assertThat(settings.lastDelivery(4)).as("ApproximateReceiveCount may overshoot").isTrue();
  }

  @Test
  void withoutStepMaxReceiveCountNoDeliveryIsTheLast() {
    WorkerSettings settings =
        WorkerSettings.fromEnvironment(Map.of("STEP_RESULTS_QUEUE_URL", QUEUE));

    assertThat(settings.maxReceiveCount()).isZero();
    assertThat(settings.lastDelivery(1)).isFalse();
    assertThat(settings.lastDelivery(1_000)).isFalse();
  }

  @Test
  void theFourValueConstructorKnowsNoMaxReceiveCount() {
    WorkerSettings settings = new WorkerSettings(QUEUE, 10, 0, Path.of("/tmp"));

    assertThat(settings.maxReceiveCount()).isZero();
    assertThat(settings.withMaxReceiveCount(5).lastDelivery(5)).isTrue();
  }

  @Test
  void aMalformedOrNegativeStepMaxReceiveCountIsRejected() {
    assertThatThrownBy(() -> WorkerSettings.parseMaxReceiveCount("three"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("STEP_MAX_RECEIVE_COUNT");
    assertThatThrownBy(() -> WorkerSettings.parseMaxReceiveCount("-1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("STEP_MAX_RECEIVE_COUNT");
    assertThat(WorkerSettings.parseMaxReceiveCount(" ")).isZero();
  }

  @Test
  void theStartReportDelayIsReadFromTheEnvironmentAndDefaultsToASecond() {
    assertThat(
            WorkerSettings.fromEnvironment(Map.of("STEP_RESULTS_QUEUE_URL", QUEUE))
                .startReportDelayMillis())
        .isEqualTo(1_000);
    assertThat(
            WorkerSettings.fromEnvironment(
                    Map.of("STEP_RESULTS_QUEUE_URL", QUEUE, "START_REPORT_DELAY_MILLIS", "0"))
                .startReportDelayMillis())
        .isZero();
    assertThat(new WorkerSettings(QUEUE, 10, 0, Path.of("/tmp")).startReportDelayMillis())
        .as("the short constructors report every start at once")
        .isZero();
    assertThat(
            new WorkerSettings(QUEUE, 10, 0, Path.of("/tmp"))
                .withStartReportDelayMillis(250)
                .withMaxReceiveCount(3)
                .startReportDelayMillis())
        .isEqualTo(250);
  }

  @Test
  void aMalformedOrNegativeStartReportDelayIsRejected() {
    assertThatThrownBy(() -> WorkerSettings.parseStartReportDelay("1s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("START_REPORT_DELAY_MILLIS");
    assertThatThrownBy(
            () ->
                WorkerSettings.fromEnvironment(
                    Map.of("STEP_RESULTS_QUEUE_URL", QUEUE, "START_REPORT_DELAY_MILLIS", "-5")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("START_REPORT_DELAY_MILLIS");
  }
}
