package dev.derive.coordinator.claim;

import static dev.derive.coordinator.claim.JobItems.n;
import static dev.derive.coordinator.claim.JobItems.s;

import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRun;
import dev.derive.protocol.JobStatus;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * The {@link JobStore} on a DynamoDB table with partition key {@code jobId} (S) and TTL attribute
 * {@code expiresAt}. Claims are one conditional {@code PutItem} that returns the existing item when
 * the condition fails ({@code ReturnValuesOnConditionCheckFailure.ALL_OLD}), so a loser joins
 * without a second read; step results are conditional {@code UpdateItem}s on the expected step.
 */
public final class DynamoDbJobStore implements JobStore {
  private static final String CLAIM_CONDITION =
      "attribute_not_exists(#jobId)"
          + " OR (#status IN (:pending, :running) AND #lease < :nowSeconds)"
          + " OR (#status = :failed AND #error.#retryable = :true)"
          + " OR #status = :succeeded";
  private static final String AT_STEP_CONDITION =
      "#currentStep = :step AND #status IN (:pending, :running)";

  private final DynamoDbClient dynamoDb;
  private final String table;

  /** Stores jobs in {@code table} (named by {@code JOBS_TABLE}). */
  public DynamoDbJobStore(DynamoDbClient dynamoDb, String table) {
    this.dynamoDb = dynamoDb;
    this.table = table;
  }

  @Override
  public ClaimResult claim(Job candidate, Instant now) {
    try {
      dynamoDb.putItem(
          b ->
              b.tableName(table)
                  .item(JobItems.toItem(candidate))
                  .conditionExpression(CLAIM_CONDITION)
                  .expressionAttributeNames(
                      Map.of(
                          "#jobId", JobItems.JOB_ID,
                          "#status", JobItems.STATUS,
                          "#lease", JobItems.LEASE_EXPIRES_AT,
                          "#error", JobItems.ERROR,
                          "#retryable", JobItems.RETRYABLE))
                  .expressionAttributeValues(
                      Map.of(
                          ":pending", s(JobStatus.PENDING.name()),
                          ":running", s(JobStatus.RUNNING.name()),
                          ":failed", s(JobStatus.FAILED.name()),
                          ":succeeded", s(JobStatus.SUCCEEDED.name()),
                          ":true", AttributeValue.fromBool(true),
                          ":nowSeconds", n(now.getEpochSecond())))
                  .returnValuesOnConditionCheckFailure(
                      ReturnValuesOnConditionCheckFailure.ALL_OLD));
      return new ClaimResult(true, candidate);
    } catch (ConditionalCheckFailedException lost) {
      if (lost.hasItem() && !lost.item().isEmpty()) {
        return new ClaimResult(false, JobItems.fromItem(lost.item()));
      }
      // An endpoint that does not return the old item: fall back to a consistent read.
      Job existing =
          find(candidate.jobId())
              .orElseThrow(
                  () ->
                      new JobStoreException(
                          "claim of " + candidate.jobId() + " lost to a record that vanished",
                          lost));
      return new ClaimResult(false, existing);
    } catch (SdkException e) {
      throw new JobStoreException("PutItem of job " + candidate.jobId() + " failed", e);
    }
  }

  @Override
  public Optional<Job> find(String jobId) {
    try {
      GetItemResponse response =
          dynamoDb.getItem(
              b -> b.tableName(table).key(Map.of(JobItems.JOB_ID, s(jobId))).consistentRead(true));
      return response.hasItem() && !response.item().isEmpty()
          ? Optional.of(JobItems.fromItem(response.item()))
          : Optional.empty();
    } catch (SdkException e) {
      throw new JobStoreException("GetItem of job " + jobId + " failed", e);
    }
  }

  @Override
  public boolean recordSuccess(
      String jobId,
      int stepIndex,
      StepRun run,
      boolean lastStep,
      Instant now,
      Instant leaseExpiresAt) {
    JobStatus next = lastStep ? JobStatus.SUCCEEDED : JobStatus.RUNNING;
    return update(
        jobId,
        stepIndex,
        "SET #steps["
            + stepIndex
            + "] = :run, #currentStep = :next, #status = :newStatus,"
            + " #updatedAt = :now, #lease = :lease",
        Map.of(
            ":run", JobItems.runItem(run),
            ":next", n(stepIndex + 1L),
            ":newStatus", s(next.name()),
            ":now", n(now.toEpochMilli()),
            ":lease", n(leaseExpiresAt.getEpochSecond())));
  }

  @Override
  public boolean recordFailure(
      String jobId, int stepIndex, StepRun run, JobError error, Instant now) {
    return update(
        jobId,
        stepIndex,
        "SET #steps["
            + stepIndex
            + "] = :run, #status = :newStatus, #error = :error,"
            + " #updatedAt = :now",
        Map.of(
            ":run", JobItems.runItem(run),
            ":newStatus", s(JobStatus.FAILED.name()),
            ":error", JobItems.errorItem(error),
            ":now", n(now.toEpochMilli())));
  }

  private boolean update(
      String jobId, int stepIndex, String expression, Map<String, AttributeValue> values) {
    Map<String, AttributeValue> all = new java.util.HashMap<>(values);
    all.put(":step", n(stepIndex));
    all.put(":pending", s(JobStatus.PENDING.name()));
    all.put(":running", s(JobStatus.RUNNING.name()));
    Map<String, String> names = new java.util.HashMap<>();
    names.put("#steps", JobItems.STEPS);
    names.put("#currentStep", JobItems.CURRENT_STEP);
    names.put("#status", JobItems.STATUS);
    names.put("#updatedAt", JobItems.UPDATED_AT);
    if (expression.contains("#lease")) {
      names.put("#lease", JobItems.LEASE_EXPIRES_AT);
    }
    if (expression.contains("#error")) {
      names.put("#error", JobItems.ERROR);
    }
    try {
      dynamoDb.updateItem(
          b ->
              b.tableName(table)
                  .key(Map.of(JobItems.JOB_ID, s(jobId)))
                  .updateExpression(expression)
                  .conditionExpression(AT_STEP_CONDITION)
                  .expressionAttributeNames(names)
                  .expressionAttributeValues(all));
      return true;
    } catch (ConditionalCheckFailedException staleOrDuplicate) {
      return false;
    } catch (AwsServiceException e) {
      throw new JobStoreException("UpdateItem of job " + jobId + " failed", e);
    } catch (SdkException e) {
      throw new JobStoreException("UpdateItem of job " + jobId + " failed", e);
    }
  }
}
