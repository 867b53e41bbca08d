package dev.derive.coordinator.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.coordinator.Jobs;
import dev.derive.coordinator.LocalAws;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.Standing;
import dev.derive.protocol.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * {@link StandingConditions} and {@link Job#standing} are one rule: on moto, each standing's
 * condition holds of a stored job item exactly when {@link Job#standing} puts the job as read back
 * in that standing, over every status and the boundaries of lease, backoff and hold (instants on,
 * just before and just after each, to the nanosecond).
 */
class StandingConditionsTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private static final Duration HOLD = Duration.ofDays(1);
  private static final Instant EDGE = T0.plusSeconds(30);

  private static DynamoDbClient dynamoDb;
  private static String table;

  @BeforeAll
  static void createTable() {
    dynamoDb = LocalAws.dynamoDb();
    table = LocalAws.createJobsTable(dynamoDb);
  }

  @AfterAll
  static void closeClient() {
    dynamoDb.close();
  }

  @Test
  void eachStandingsConditionHoldsExactlyWhereJobStandingSaysSo() {
    List<Instant> nows =
        List.of(
            EDGE.minusMillis(500),
            EDGE,
            EDGE.plusNanos(1),
            EDGE.plusMillis(500),
            EDGE.plusSeconds(1));
    Map<Standing, Integer> seen = new HashMap<>();
    for (Job written : samples()) {
      dynamoDb.putItem(b -> b.tableName(table).item(JobItems.toItem(written, JobRecordShape.FULL)));
      Job stored =
          JobItems.fromItem(
              dynamoDb
                  .getItem(
                      b ->
                          b.tableName(table)
                              .key(Map.of(JobItems.JOB_ID, JobItems.s(written.jobId())))
                              .consistentRead(true))
                  .item());
      for (Instant now : nows) {
        Standing expected = stored.standing(now, HOLD);
        seen.merge(expected, 1, Integer::sum);
        for (Standing standing : Standing.values()) {
          assertThat(holds(stored.jobId(), StandingConditions.of(standing, now, now.minus(HOLD))))
              .as(
                  "%s of %s %s (lease %s, retryAfter %s, updatedAt %s, error %s) at %s",
                  standing,
                  stored.status(),
                  stored.jobId(),
                  stored.leaseExpiresAt(),
                  stored.retryAfter(),
                  stored.updatedAt(),
                  stored.error(),
                  now)
              .isEqualTo(standing == expected);
        }
      }
    }
    assertThat(seen).as("every standing met").containsOnlyKeys(Standing.values());
  }

  /** Whether {@code condition} holds of item {@code jobId}: a conditional no-op update applies. */
  private static boolean holds(String jobId, Condition condition) {
    Map<String, String> names = new HashMap<>(condition.names());
    names.put("#probe", "probe");
    try {
      dynamoDb.updateItem(
          b ->
              b.tableName(table)
                  .key(Map.of(JobItems.JOB_ID, JobItems.s(jobId)))
                  .updateExpression("REMOVE #probe")
                  .conditionExpression(condition.text())
                  .expressionAttributeNames(names)
                  .expressionAttributeValues(condition.values()));
      return true;
    } catch (ConditionalCheckFailedException no) {
      return false;
    }
  }

  /** Jobs in every status, with lease, backoff and hold ending before, on and after the edge. */
  private static List<Job> samples() {
    List<Job> jobs = new ArrayList<>();
    Instant cutoff = EDGE.minus(HOLD);
    for (Instant at : edges(EDGE)) {
      jobs.add(job(JobStatus.PENDING, null, T0, at, null));
      jobs.add(job(JobStatus.RUNNING, null, T0, at, null));
      jobs.add(job(JobStatus.FAILED, retryable(true), T0, T0, at));
    }
    for (Instant at : edges(cutoff)) {
      jobs.add(job(JobStatus.FAILED, retryable(false), at, T0, null));
    }
    jobs.add(job(JobStatus.SUCCEEDED, null, T0, T0, null));
    jobs.add(job(JobStatus.FAILED, retryable(true), T0, T0, null));
    jobs.add(job(JobStatus.FAILED, null, cutoff.minusSeconds(1), T0, null));
    return jobs;
  }

  private static List<Instant> edges(Instant edge) {
    return List.of(
        edge.minusSeconds(1), edge.minusMillis(1), edge, edge.plusMillis(1), edge.plusSeconds(1));
  }

  private static JobError retryable(boolean retryable) {
    return new JobError("timeout", "slow", 0, retryable);
  }

  private static Job job(
      JobStatus status, JobError error, Instant updatedAt, Instant lease, Instant retryAfter) {
    Job claimed = Jobs.claimed(Jobs.newId(), 1, T0, Duration.ofSeconds(60));
    return new Job(
        claimed.jobId(),
        status,
        claimed.plan(),
        status == JobStatus.SUCCEEDED ? 1 : 0,
        claimed.source(),
        claimed.output(),
        claimed.steps(),
        error,
        claimed.createdAt(),
        updatedAt,
        lease,
        claimed.expiresAt(),
        claimed.traceId(),
        claimed.executionId(),
        error != null && error.retryable() ? 1 : 0,
        retryAfter);
  }
}
