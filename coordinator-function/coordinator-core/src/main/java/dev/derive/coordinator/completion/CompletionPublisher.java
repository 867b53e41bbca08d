package dev.derive.coordinator.completion;

/** The seam to the event bus completion events are published on. */
public interface CompletionPublisher {
  /**
   * Publishes {@code event}. At-least-once: a call that fails may still have published it.
   *
   * @throws CompletionPublishException if the bus did not accept it (the caller retries)
   */
  void publish(CompletionEvent event);
}
