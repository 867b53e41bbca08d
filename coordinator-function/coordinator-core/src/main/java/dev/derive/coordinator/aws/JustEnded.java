package dev.derive.coordinator.aws;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The record a write that ended a job returned to this thread ({@code ReturnValues.ALL_NEW}: the
 * whole item, callbacks and pending notice included, at no extra charge), kept for the {@link
 * DynamoDbCompletionOutbox#pending} that follows it on the same thread: the notifier runs right
 * after the ending write ({@code StepResultTransitions}), so it publishes from the item the write
 * returned instead of reading it again (one strongly consistent read and one round trip less per
 * job). Taken once; any other read of the outbox on the thread clears it, and it is used only
 * within {@link #FRESH_NANOS} of the write, so it never stands for the record any later than that.
 * A notice another instance marked sent in between is published once more, as after a crash between
 * publishing and marking ({@code docs/completion-events.md}).
 */
final class JustEnded {
  /** How long after its write an item stands for the record: 1 s. */
  static final long FRESH_NANOS = 1_000_000_000L;

  private record Ended(String table, String jobId, Map<String, AttributeValue> item, long at) {}

  private static final ThreadLocal<Ended> LAST = new ThreadLocal<>();

  private JustEnded() {}

  /** Keeps {@code item}, just written to {@code table} by this thread. */
  static void remember(String table, Map<String, AttributeValue> item) {
    LAST.set(new Ended(table, item.get(JobItems.JOB_ID).s(), item, System.nanoTime()));
  }

  /**
   * The item this thread's last ending write of job {@code jobId} in {@code table} returned, if it
   * was the last one kept and is fresh; {@code null} otherwise. Clears what was kept either way.
   */
  static Map<String, AttributeValue> take(String table, String jobId) {
    Ended ended = LAST.get();
    if (ended == null) {
      return null;
    }
    LAST.remove();
    boolean same = ended.table().equals(table) && ended.jobId().equals(jobId);
    return same && System.nanoTime() - ended.at() < FRESH_NANOS ? ended.item() : null;
  }
}
