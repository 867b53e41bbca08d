package dev.derive.worker.runtime;

/**
 * Puts a fresh copy of a step message back on the queue it came from, for a worker process that
 * must exit and so takes no further work: the copy is delivered at once to a healthy process, with
 * a receive count of 0, where a delivery handed back would wait out its visibility timeout (12
 * minutes for a PDF) and spend one of its receives, and could dead-letter without ever having run
 * (issue 26 item 15). At-least-once holds: the original is acknowledged only after the copy was
 * sent, and a copy that runs twice makes the same content-addressed output.
 */
@FunctionalInterface
public interface StepRequeue {
  /** None: every such delivery is handed back instead. */
  StepRequeue NONE =
      (queueArn, body) -> {
        throw new UnsupportedOperationException("no requeue configured");
      };

  /**
   * Sends {@code body} as a new message to the queue named by {@code queueArn}.
   *
   * @throws RuntimeException if it was not sent (the delivery is then handed back)
   */
  void requeue(String queueArn, String body);
}
