package dev.derive.coordinator.completion;

import dev.derive.coordinator.completion.CompletionOutbox.PendingCompletion;
import dev.derive.coordinator.job.Job;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.telemetry.EmbeddedMetrics;
import dev.derive.protocol.telemetry.Metric;
import java.util.Optional;

/**
 * Publishes a job's pending completion: its EventBridge event, then one callback delivery per
 * registered callback, then marks the notice SENT. Called right after every write that ends a job
 * and again whenever a message about an ended job arrives, so a notifier that died after the
 * terminal write (or failed to publish) is made good by the redelivery. Each step is at-least-once:
 * a crash between publishing and marking publishes once more, with the same {@code eventId} and
 * delivery ids.
 *
 * <p>Each publication also writes the job's {@link Metric#JOB_DURATION} from the record the pending
 * notice was read with, so an ended job costs no second read for its metric (once per ended job;
 * twice only when a crash re-publishes).
 */
public final class CompletionNotifier {
  private static final System.Logger LOG = System.getLogger(CompletionNotifier.class.getName());

  private final CompletionOutbox outbox;
  private final CompletionPublisher publisher;
  private final CallbackQueue callbacks;
  private final EmbeddedMetrics metrics = EmbeddedMetrics.standardOutput();

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
    jobEnded(pending.job());
    LOG.log(
        System.Logger.Level.INFO,
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

  /**
   * Writes {@link Metric#JOB_DURATION} of {@code job}: from its claim to now, in milliseconds, by
   * outcome. Never fails the announcement: a metric is not worth a redelivery.
   */
  private void jobEnded(Job job) {
    try {
      metrics.write(
          EmbeddedMetrics.event()
              .value(
                  Metric.JOB_DURATION,
                  Math.max(0, System.currentTimeMillis() - job.createdAt().toEpochMilli()))
              .dimension(
                  Metric.Dimension.OUTCOME,
                  job.status() == JobStatus.SUCCEEDED ? "succeeded" : "failed")
              .property("steps", job.plan().size()));
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.DEBUG,
          () -> "no job duration for " + job.jobId() + ": " + e.getMessage());
    }
  }
}
