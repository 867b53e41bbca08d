package dev.derive.worker.runtime.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.worker.runtime.QueuedMessage;
import dev.derive.worker.runtime.StepQueue;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The visibility heartbeat on a queue that records each change (3 s timeout: a beat a second). */
@Timeout(30)
class VisibilityHeartbeatTest {
  private static final String QUEUE = "arn:aws:sqs:us-east-1:123456789012:derive-image";

  private final List<String> beats = new CopyOnWriteArrayList<>();
  private volatile Set<String> refuse = Set.of();
  private volatile RuntimeException failure;

  private final StepQueue queue =
      new StepQueue() {
        @Override
        public void requeue(String queueArn, String body) {
          throw new UnsupportedOperationException();
        }

        @Override
        public Set<String> changeVisibility(Collection<QueuedMessage> messages, int seconds) {
          if (failure != null) {
            RuntimeException thrown = failure;
            failure = null;
            beats.add("failed");
            throw thrown;
          }
          beats.add(seconds + " " + StepQueue.ids(messages));
          return refuse;
        }

        @Override
        public Set<String> delete(Collection<QueuedMessage> messages) {
          throw new UnsupportedOperationException();
        }
      };

  private static QueuedMessage message(String id) {
    return new QueuedMessage(id, QUEUE, "receipt-" + id);
  }

  private void awaitBeats(int count) throws InterruptedException {
    while (beats.size() < count) {
      Thread.sleep(20);
    }
  }

  @Test
  void beatsAtOnceAndEveryThirdOfTheTimeoutUntilClosed() throws Exception {
    VisibilityHeartbeat heartbeat = new VisibilityHeartbeat(queue, 3);
    long started = System.nanoTime();

    try (VisibilityHeartbeat.Hold hold =
        heartbeat.hold(List.of(message("m1"), message("m2")), Long.MAX_VALUE)) {
      awaitBeats(1);
      long first = System.nanoTime();
      awaitBeats(3);
      long third = System.nanoTime();
      assertThat((first - started) / 1_000_000).as("first beat, ms").isLessThan(900);
      assertThat((third - first) / 1_000_000)
          .as("two periods of 1 s, ms")
          .isBetween(1_900L, 4_000L);
    }
    int afterClose = beats.size();
    Thread.sleep(1_500);

    assertThat(beats.subList(0, 3)).containsOnly("3 [m1, m2]");
    assertThat(beats).as("no beat after the invocation ended").hasSize(afterClose);
  }

  @Test
  void aRefusedReceiptIsNoLongerBeatenForAndAFailedCallIsTriedAgain() throws Exception {
    VisibilityHeartbeat heartbeat = new VisibilityHeartbeat(queue, 3);
    refuse = Set.of("m1"); // received again elsewhere, or deleted

    try (VisibilityHeartbeat.Hold hold =
        heartbeat.hold(List.of(message("m1"), message("m2")), Long.MAX_VALUE)) {
      awaitBeats(1);
      refuse = Set.of();
      failure = new IllegalStateException("throttled");
      awaitBeats(3);
    }

    assertThat(beats.subList(0, 3)).containsExactly("3 [m1, m2]", "failed", "3 [m2]");
  }

  @Test
  void noBeatPastTheInvocationsDeadline() throws Exception {
    AtomicLong now = new AtomicLong(1_000);
    VisibilityHeartbeat heartbeat = new VisibilityHeartbeat(queue, 3, now::get);

    try (VisibilityHeartbeat.Hold hold = heartbeat.hold(List.of(message("m1")), 1_500)) {
      awaitBeats(1);
      now.set(1_501);
      Thread.sleep(2_500);
    }

    assertThat(beats).containsExactly("3 [m1]");
  }

  @Test
  void noneAndAnEmptyBatchBeatNever() throws Exception {
    try (VisibilityHeartbeat.Hold hold =
        VisibilityHeartbeat.NONE.hold(List.of(message("m1")), Long.MAX_VALUE)) {
      Thread.sleep(100);
    }
    try (VisibilityHeartbeat.Hold hold =
        new VisibilityHeartbeat(queue, 3).hold(List.of(), Long.MAX_VALUE)) {
      Thread.sleep(100);
    }

    assertThat(beats).isEmpty();
  }

  @Test
  void theTimeoutIsReadFromItsVariable() {
    assertThat(VisibilityHeartbeat.parseVisibilitySeconds(null)).isEqualTo(60);
    assertThat(VisibilityHeartbeat.parseVisibilitySeconds(" 30 ")).isEqualTo(30);
    assertThatThrownBy(() -> VisibilityHeartbeat.parseVisibilitySeconds("a minute"))
        .hasMessageContaining("STEP_VISIBILITY_TIMEOUT_SECONDS");
    assertThatThrownBy(() -> new VisibilityHeartbeat(queue, 43_201))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
