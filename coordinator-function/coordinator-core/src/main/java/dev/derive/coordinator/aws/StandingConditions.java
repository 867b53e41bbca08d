package dev.derive.coordinator.aws;

import static dev.derive.coordinator.aws.JobItems.n;
import static dev.derive.coordinator.aws.JobItems.s;

import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.Standing;
import dev.derive.protocol.JobStatus;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@link Job#standing} in DynamoDB's words, the one place the adapter states it: the condition
 * under which a job item stands as a given {@link Standing}, for the writes that act on a standing
 * (a claim replaces a {@link Standing#FAILED_RECLAIMABLE} record, a take-over a {@link
 * Standing#LOST} one, a replacement a {@link Standing#SUCCEEDED} one). Instants are compared as the
 * item keeps them (leases and {@code retryAfter} in whole seconds, {@code updatedAt} in
 * milliseconds) against the instant rounded up to the same unit, so a condition holds exactly when
 * {@link Job#standing} says so ({@code StandingConditionsTest} checks the two against each other on
 * moto).
 */
final class StandingConditions {
  private StandingConditions() {}

  /**
   * The item stands as {@code standing} at {@code now}, a permanent failure being held until {@code
   * permanentFailureCutoff} ({@code now} minus the hold).
   */
  static Condition of(Standing standing, Instant now, Instant permanentFailureCutoff) {
    return switch (standing) {
      case IN_FLIGHT -> unfinished().and(leaseOver(now).not());
      case LOST -> unfinished().and(leaseOver(now));
      case SUCCEEDED -> status(":succeeded", JobStatus.SUCCEEDED);
      case FAILED_RECLAIMABLE -> failed().and(failureFree(now, permanentFailureCutoff));
      case FAILED_HELD -> failed().and(failureFree(now, permanentFailureCutoff).not());
    };
  }

  /** The failure is retryable ({@code error.retryable} is true; an item without one is not). */
  static Condition retryable() {
    return new Condition(
        "#error.#retryable = :true",
        Map.of("#error", JobItems.ERROR, "#retryable", JobItems.RETRYABLE),
        Map.of(":true", AttributeValue.fromBool(true)));
  }

  /**
   * A FAILED item may be claimed again: retryable and its backoff over (or none), or permanent and
   * older than the hold.
   */
  private static Condition failureFree(Instant now, Instant permanentFailureCutoff) {
    Condition backoffOver =
        new Condition(
            "attribute_not_exists(#retryAfter) OR #retryAfter < :nowSeconds",
            Map.of("#retryAfter", JobItems.RETRY_AFTER),
            Map.of(":nowSeconds", n(ceilingSeconds(now))));
    Condition holdOver =
        new Condition(
            "#updatedAt < :cutoffMillis",
            Map.of("#updatedAt", JobItems.UPDATED_AT),
            Map.of(":cutoffMillis", n(ceilingMillis(permanentFailureCutoff))));
    return retryable().and(backoffOver).or(retryable().not().and(holdOver));
  }

  private static Condition unfinished() {
    return new Condition(
        "#status IN (:pending, :running)",
        Map.of("#status", JobItems.STATUS),
        Map.of(":pending", s(JobStatus.PENDING.name()), ":running", s(JobStatus.RUNNING.name())));
  }

  private static Condition failed() {
    return status(":failed", JobStatus.FAILED);
  }

  private static Condition status(String placeholder, JobStatus status) {
    return new Condition(
        "#status = " + placeholder,
        Map.of("#status", JobItems.STATUS),
        Map.of(placeholder, s(status.name())));
  }

  /** The lease ran out before {@code now} ({@link Job#isLost}). */
  private static Condition leaseOver(Instant now) {
    return new Condition(
        "#leaseExpiresAt < :nowSeconds",
        Map.of("#leaseExpiresAt", JobItems.LEASE_EXPIRES_AT),
        Map.of(":nowSeconds", n(ceilingSeconds(now))));
  }

  /**
   * {@code now} rounded up to whole seconds: an instant of whole seconds is before {@code now}
   * exactly when it is before this.
   */
  static long ceilingSeconds(Instant now) {
    return now.getEpochSecond() + (now.getNano() > 0 ? 1 : 0);
  }

  /** {@code instant} rounded up to whole milliseconds, likewise. */
  static long ceilingMillis(Instant instant) {
    return instant.toEpochMilli() + (instant.getNano() % 1_000_000 > 0 ? 1 : 0);
  }
}
