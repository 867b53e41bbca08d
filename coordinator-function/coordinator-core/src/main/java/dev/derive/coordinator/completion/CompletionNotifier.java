package dev.derive.coordinator.completion;

import dev.derive.coordinator.completion.CompletionOutbox.PendingCompletion;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Publishes a job's pending completion: its EventBridge event, then one callback delivery per
 * registered callback, then marks the notice SENT. Called right after every write that ends a job
 * and again whenever a message about an ended job arrives, so a notifier that died after the
 * terminal write (or failed to publish) is made good by the redelivery. Each step is at-least-once:
 * a crash between publishing and marking publishes once more, with the same {@code eventId} and
 * delivery ids.
 */
public final class CompletionNotifier {
  private static final Logger LOG = Logger.getLogger(CompletionNotifier.class.getName());

  private final CompletionOutbox outbox;
  private final CompletionPublisher publisher;
  private final CallbackQueue callbacks;

  /**
   * @param outbox where pending completions are read and marked sent
   * @param publisher the event bus
   * @param callbacks the callback queue
   */
  public CompletionNotifier(
      CompletionOutbox outbox, CompletionPublisher publisher, CallbackQueue callbacks) {
    this.outbox = outbox;
    this.publisher = publisher;
    this.callbacks = callbacks;
  }

  /** A notifier that publishes nothing (for lifecycles whose tests do not look at events). */
  public static CompletionNotifier disabled() {
    return new CompletionNotifier(null, null, null);
  }

  /**
   * Publishes job {@code jobId}'s completion if it ended and its notice is still pending.
   *
   * @return whether it was published now
   * @throws CompletionPublishException if the bus or the callback queue failed (the notice stays
   *     pending: retry)
   * @throws dev.derive.coordinator.claim.JobStoreException on a store failure (likewise)
   */
  public boolean announce(String jobId) {
    if (outbox == null) {
      return false;
    }
    Optional<PendingCompletion> found = outbox.pending(jobId);
    if (found.isEmpty()) {
      return false;
    }
    PendingCompletion pending = found.get();
    CompletionEvent event = CompletionEvent.ended(pending.job());
    publisher.publish(event);
    for (Callback callback : pending.callbacks()) {
      callbacks.enqueue(CallbackDelivery.of(callback, event));
    }
    outbox.markSent(jobId, pending.job().executionId());
    LOG.info(
        () ->
            "completion event "
                + event.eventId()
                + " "
                + event.detailType()
                + " published, "
                + pending.callbacks().size()
                + " callback(s) queued");
    return true;
  }
}
