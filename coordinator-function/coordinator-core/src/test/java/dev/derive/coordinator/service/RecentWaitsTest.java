package dev.derive.coordinator.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RecentWaitsTest {
  private final RecentWaits waits = new RecentWaits();

  @Test
  void aPlanHasNoExpectationUntilTwoWaitsWereSeen() {
    assertThat(waits.shortest("image")).isEmpty();
    waits.record("image", Duration.ofMillis(3000)); // a cold start
    assertThat(waits.shortest("image")).isEmpty();
    waits.record("image", Duration.ofMillis(200));
    assertThat(waits.shortest("image")).contains(Duration.ofMillis(200));
  }

  @Test
  void theExpectationIsTheShortestOfTheLastEightAndPlansAreApart() {
    waits.record("image", Duration.ofMillis(100));
    for (int i = 0; i < RecentWaits.KEPT_PER_PLAN - 1; i++) {
      waits.record("image", Duration.ofMillis(300 + i));
    }
    waits.record("markup,pdf,image", Duration.ofMillis(900));
    waits.record("markup,pdf,image", Duration.ofMillis(800));
    assertThat(waits.shortest("image")).contains(Duration.ofMillis(100));

    waits.record("image", Duration.ofMillis(400)); // the 100 ms wait is now the ninth last
    assertThat(waits.shortest("image")).contains(Duration.ofMillis(300));
    assertThat(waits.shortest("markup,pdf,image")).contains(Duration.ofMillis(800));
  }
}
