package dev.derive.coordinator.completion;

import dev.derive.coordinator.job.Job;
import java.util.List;
import java.util.Optional;

/**
 * The outbox half of the job record: every write that ends a job ({@link
 * dev.derive.coordinator.claim.JobStore#recordSuccess} of the last step, {@link
 * dev.derive.coordinator.claim.JobStore#recordFailure}) marks its completion notice PENDING in the
 * same conditional write; whoever publishes it marks it SENT afterwards. A publisher that dies in
 * between leaves it PENDING, and the next delivery of any message about the job publishes it again
 * ({@code docs/completion-events.md}). Callbacks are registered on the record while the job runs.
 */
public interface CompletionOutbox {
  /** A job that ended and whose completion notice is not yet marked sent. */
  record PendingCompletion(Job job, List<Callback> callbacks) {
    public PendingCompletion {
      callbacks = List.copyOf(callbacks);
    }
  }

  /** How registering a callback on a job went. */
  enum Registered {
    /** Stored: the job's end calls it back. */
    ON_JOB,
    /** The job had already ended (given): the caller delivers the callback itself. */
    JOB_ENDED,
    /**
     * The job holds {@link #MAX_CALLBACKS} callbacks, or {@link #MAX_CALLBACK_BYTES} would be
     * exceeded: refused.
     */
    FULL,
    /** There is no such job. */
    NO_JOB
  }

  /** The outcome of {@link #register}: how, and the job as found when it was not stored. */
  record Registration(Registered outcome, Job job) {}

  /** Most callbacks one job record holds. */
  int MAX_CALLBACKS = 100;

  /**
   * Most bytes of callbacks (URL, delivery id and request echo) one job record holds: a DynamoDB
   * item holds 400 KB, the job itself a few, and callbacks carried over from a lost execution may
   * land beside ones registered meanwhile, so twice this still fits.
   */
  long MAX_CALLBACK_BYTES = 150_000;

  /**
   * The job's completion to publish: present when the job ended and its notice is PENDING (read
   * strongly consistent; the callbacks are final once the job ended).
   *
   * @throws dev.derive.coordinator.claim.JobStoreException on a store failure
   */
  Optional<PendingCompletion> pending(String jobId);

  /**
   * Marks execution {@code executionId}'s completion notice SENT.
   *
   * @return false if it was not PENDING (already sent, or the job was claimed again since)
   * @throws dev.derive.coordinator.claim.JobStoreException on a store failure
   */
  boolean markSent(String jobId, String executionId);

  /**
   * Adds {@code callback} to job {@code jobId} while it is PENDING or RUNNING (whichever
   * execution).
   *
   * @throws dev.derive.coordinator.claim.JobStoreException on a store failure
   */
  Registration register(String jobId, Callback callback);
}
