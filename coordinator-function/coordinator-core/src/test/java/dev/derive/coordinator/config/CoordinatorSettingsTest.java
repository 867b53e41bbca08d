package dev.derive.coordinator.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CoordinatorSettingsTest {
  private static CoordinatorSettings settings(Map<String, String> environment) {
    return CoordinatorSettings.from(name -> Optional.ofNullable(environment.get(name)));
  }

  /**
   * Issue 26 item 13: a step that waits in a queue's backlog longer than its retry horizon was read
   * as stalled (GET said FAILED, later SUCCEEDED): its lease covers the time its message may wait
   * in the queue as well.
   */
  @Test
  void aStepsLeaseCoversItsMessagesTimeInTheQueueAndEveryDelivery() {
    Map<String, String> environment =
        Map.of(
            "JOBS_TABLE",
            "jobs",
            "SOURCE_BUCKET",
            "s",
            "DERIVATIVES_BUCKET",
            "d",
            "IMAGE_STEP_LEASE_SECONDS",
            "2220");

    assertThat(settings(environment).stepLease("image"))
        .isEqualTo(Duration.ofSeconds(2220).plusDays(4));
    assertThat(settings(withRetention(environment, "3600")).stepLease("image"))
        .isEqualTo(Duration.ofSeconds(2220 + 3600));
  }

  private static Map<String, String> withRetention(
      Map<String, String> environment, String seconds) {
    Map<String, String> more = new java.util.HashMap<>(environment);
    more.put("STEP_QUEUE_RETENTION_SECONDS", seconds);
    return more;
  }
}
