package dev.derive.coordinator.completion;

import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.completion.CompletionOutbox.Registration;
import dev.derive.coordinator.job.Job;
import java.time.Clock;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Makes sure a request that named a {@code callback} is called back exactly once for itself
 * (at-least-once on the wire), whatever way it was answered ({@code docs/completion-events.md}):
 *
 * <ul>
 *   <li>answered from the cache (no job runs): a {@code Derivative Succeeded} delivery with {@code
 *       cached: true} is queued at once;
 *   <li>claimed or joined a job that still runs: the callback is stored on the job record, and the
 *       job's end delivers it with the job's event;
 *   <li>the job had ended meanwhile (or the request met a recent permanent failure): the delivery
 *       of that end is queued at once.
 * </ul>
 *
 * Registration is conditional on the job not having ended, and the job's end reads its callbacks
 * after the write that ended it, so no callback falls between the two. A callback stored on a claim
 * that has sent no step has that claim watched ({@link LostClaimWatch}), so it is called back even
 * if the claimer died and nobody asks again.
 */
public final class CallbackRegistrar {
  private static final System.Logger LOG = System.getLogger(CallbackRegistrar.class.getName());

  private final CompletionOutbox outbox;
  private final CallbackQueue queue;
  private final String derivativesBucket;
  private final Clock clock;
  private final Supplier<String> ids;
  private final LostClaimWatch lostClaims;

  /**
   * @param ids new delivery ids (random UUIDs)
   * @param lostClaims watches a claim that has sent no step when a callback is stored on it
   */
  public CallbackRegistrar(
      CompletionOutbox outbox,
      CallbackQueue queue,
      String derivativesBucket,
      Clock clock,
      Supplier<String> ids,
      LostClaimWatch lostClaims) {
    this.outbox = outbox;
    this.queue = queue;
    this.derivativesBucket = derivativesBucket;
    this.clock = clock;
    this.ids = ids;
    this.lostClaims = lostClaims;
  }

  /**
   * Registers {@code url} for a request answered with derivative {@code fingerprint}.
   *
   * @param cached whether the request was answered from the cache (no job to wait for)
   * @param request what the request asked for, echoed to the receiver
   * @return the delivery id
   * @throws TooManyCallbacksException if the job already holds {@link
   *     CompletionOutbox#MAX_CALLBACKS}
   * @throws CompletionPublishException if the delivery could not be queued
   * @throws dev.derive.coordinator.claim.JobStoreException on a store failure, or if the job has no
   *     record (it cannot vanish between claim and registration: records live for days)
   */
  public String register(
      String fingerprint, boolean cached, String url, Map<String, Object> request) {
    Callback callback = new Callback(ids.get(), url, request);
    if (cached) {
      queue.enqueue(
          CallbackDelivery.of(
              callback, CompletionEvent.cached(fingerprint, derivativesBucket, clock.instant())));
      return callback.id();
    }
    Registration registration = outbox.register(fingerprint, callback);
    switch (registration.outcome()) {
      case ON_JOB -> {
        LOG.log(
            System.Logger.Level.DEBUG,
            () -> "callback " + callback.id() + " waits on job " + fingerprint);
        watchIfNothingSent(registration.job());
      }
      case JOB_ENDED ->
          queue.enqueue(CallbackDelivery.of(callback, CompletionEvent.ended(registration.job())));
      case FULL -> throw new TooManyCallbacksException(fingerprint);
      case NO_JOB ->
          throw new dev.derive.coordinator.claim.JobStoreException(
              "job " + fingerprint + " has no record to register callback " + url + " on", null);
    }
    return callback.id();
  }

  /**
   * A claim that has sent no step may be one whose claimer died before sending it: if nobody asks
   * again, nothing would end it, and the callback just stored would never be called. Its check is
   * sent; one that cannot be is logged (the next request for the job still ends it).
   */
  private void watchIfNothingSent(Job job) {
    if (job == null || !job.sentNoStep()) {
      return;
    }
    try {
      lostClaims.watch(job);
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          () ->
              "the claim of job "
                  + job.jobId()
                  + " has sent no step and could not be watched: "
                  + e.getMessage());
    }
  }
}
