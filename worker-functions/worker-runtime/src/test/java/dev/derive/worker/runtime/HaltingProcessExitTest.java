package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The production exit, with the halt recorded instead of performed. */
class HaltingProcessExitTest {
  private final List<Integer> statuses = new CopyOnWriteArrayList<>();
  private final CountDownLatch halted = new CountDownLatch(1);

  private HaltingProcessExit exit(Duration delay) {
    return new HaltingProcessExit(
        delay,
        status -> {
          statuses.add(status);
          halted.countDown();
        });
  }

  @Test
  @Timeout(10)
  void haltsWithTheSoftwareErrorStatusOnlyAfterTheDelaySoTheResponseCanBePosted()
      throws InterruptedException {
    HaltingProcessExit exit = exit(Duration.ofMillis(300));
    long asked = System.nanoTime();

    exit.exitAfterResponse("a step ignored its interrupt");

    assertThat(statuses).as("the caller returns at once; nothing halted yet").isEmpty();
    assertThat(halted.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - asked))
        .isGreaterThanOrEqualTo(Duration.ofMillis(300));
    assertThat(statuses).containsExactly(HaltingProcessExit.EXIT_STATUS);
  }

  @Test
  @Timeout(10)
  void askingTwiceHaltsOnce() throws InterruptedException {
    HaltingProcessExit exit = exit(Duration.ofMillis(50));

    exit.exitAfterResponse("first");
    exit.exitAfterResponse("second");

    assertThat(halted.await(5, TimeUnit.SECONDS)).isTrue();
    Thread.sleep(200);
    assertThat(statuses).hasSize(1);
  }

  @Test
  void theDefaultDelayIsShortButNotZero() {
    assertThat(HaltingProcessExit.EXIT_DELAY)
        .isGreaterThan(Duration.ZERO)
        .isLessThanOrEqualTo(Duration.ofSeconds(2));
    assertThat(HaltingProcessExit.EXIT_STATUS).isEqualTo(70);
  }
}
