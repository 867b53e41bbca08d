package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The production exit, with the halt recorded instead of performed. */
class HaltingProcessExitTest {
  private final List<Integer> statuses = new ArrayList<>();
  private final HaltingProcessExit exit = new HaltingProcessExit(statuses::add);

  @Test
  void haltsAtOnceOnTheCallersThreadWithTheSoftwareErrorStatus() {
    exit.exit("a step ignored its interrupt");

    assertThat(statuses)
        .as("halted before exit returned: the runtime never asks for another invocation")
        .containsExactly(70);
    assertThat(HaltingProcessExit.EXIT_STATUS).isEqualTo(70);
  }

  @Test
  void askingTwiceHaltsOnce() {
    exit.exit("first");
    exit.exit("second");

    assertThat(statuses).hasSize(1);
  }
}
