package dev.derive.coordinator.completion;

/** The seam to the queue callback deliveries wait in (with retries and a dead-letter queue). */
public interface CallbackQueue {
  /**
   * Queues {@code delivery}.
   *
   * @throws CompletionPublishException if it could not be queued (the caller retries)
   */
  void enqueue(CallbackDelivery delivery);
}
