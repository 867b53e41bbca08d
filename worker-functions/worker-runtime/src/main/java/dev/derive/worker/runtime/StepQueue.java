package dev.derive.worker.runtime;

import java.util.Collection;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a worker asks of the queue its steps come from, besides receiving them (its event source
 * mapping receives, and deletes what the batch response does not name): put a fresh copy of a
 * message back ({@link StepRequeue}), keep a message it holds hidden from other consumers (the
 * {@code lambda.VisibilityHeartbeat}), and delete or release the messages of a batch itself when
 * the process ends before it can answer (docs/job-lifecycle.md, "Crashes and poison").
 */
public interface StepQueue extends StepRequeue {
  /** None: nothing is put back, hidden, deleted or released (the queue's own timers apply). */
  StepQueue NONE =
      new StepQueue() {
        @Override
        public void requeue(String queueArn, String body) {
          StepRequeue.NONE.requeue(queueArn, body);
        }

        @Override
        public Set<String> changeVisibility(Collection<QueuedMessage> messages, int seconds) {
          return ids(messages);
        }

        @Override
        public Set<String> delete(Collection<QueuedMessage> messages) {
          return ids(messages);
        }
      };

  /**
   * Makes each message invisible for {@code seconds} from now ({@code ChangeMessageVisibility}); 0
   * makes it visible again at once.
   *
   * @return the ids of the messages whose visibility was not changed because their receipt was
   *     refused (no longer valid: the message was received again or deleted)
   * @throws RuntimeException if the call failed (none or only some were changed)
   */
  Set<String> changeVisibility(Collection<QueuedMessage> messages, int seconds);

  /**
   * Deletes the messages ({@code DeleteMessage}).
   *
   * @return the ids of the messages whose receipt was refused
   * @throws RuntimeException if the call failed (none or only some were deleted)
   */
  Set<String> delete(Collection<QueuedMessage> messages);

  /** The ids of {@code messages}. */
  static Set<String> ids(Collection<QueuedMessage> messages) {
    return messages.stream()
        .map(QueuedMessage::messageId)
        .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
  }
}
