package dev.derive.coordinator.aws;

import static dev.derive.coordinator.aws.JobItems.n;
import static dev.derive.coordinator.aws.JobItems.s;

import dev.derive.coordinator.claim.ClaimResult;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.JobStoreException;
import dev.derive.coordinator.claim.StepWrite;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.protocol.JobStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The {@link JobStore} on a DynamoDB table with partition key {@code jobId} (S) and TTL attribute
 * {@code expiresAt}: only the translation to condition expressions, attribute names and SDK
 * exceptions. Claims are one conditional {@code PutItem} that returns the existing item when the
 * condition fails ({@code ReturnValuesOnConditionCheckFailure.ALL_OLD}), so a loser joins without a
 * second read; step writes are conditional {@code UpdateItem}s on the job being at the step.
 *
 * <p>Over 300 lines because it implements every write of {@link JobStore} (claim, replace, start,
 * advance, last success, failure, dispatch mark, callbacks carried over): each is a short condition
 * and update expression, and keeping them in one class keeps the table's condition vocabulary (the
 * step guard, the execution guard) in one place. {@link JobItems} holds the item mapping.
 */
public final class DynamoDbJobStore implements JobStore {
  /**
   * An ended record is replaced only once its end is published (its notice is not pending): the end
   * of an execution is announced before its record goes, so no callback registered on it is carried
   * to the next execution after it was queued with this one's end.
   */
  static final String NOTICE_NOT_PENDING =
      "(attribute_not_exists(#completion) OR #completion <> :completionPending)";

  /** {@link JobStore#claim}: the record may be taken over. */
  static final String CLAIM_CONDITION =
      "attribute_not_exists(#jobId)"
          + " OR (#status IN (:pending, :running) AND #lease < :nowSeconds)"
          + " OR (#status = :failed AND #error.#retryable = :true AND "
          + NOTICE_NOT_PENDING
          + " AND (attribute_not_exists(#retryAfter) OR #retryAfter < :nowSeconds))"
          + " OR (#status = :failed AND #updatedAt < :cutoffMillis AND "
          + NOTICE_NOT_PENDING
          + ")";

  /** {@link JobStore#replaceSucceeded}: the SUCCEEDED record of the execution seen. */
  static final String REPLACE_SUCCEEDED_CONDITION =
      "#status = :succeeded AND #executionId = :seen AND " + NOTICE_NOT_PENDING;

  /** Every step write: the job is at the step, in the execution named. */
  static final String AT_STEP_CONDITION =
      "#executionId = :execution AND #currentStep = :step AND #status IN (:pending, :running)";

  /**
   * Part of every write that ends a job: its completion notice is pending, in the same conditional
   * write ({@link DynamoDbCompletionOutbox}).
   */
  static final String COMPLETION_PENDING_UPDATE = "#completion = :completionPending";

  private final DynamoDbClient dynamoDb;
  private final String table;

  /** Stores jobs in {@code table} (named by {@code JOBS_TABLE}). */
  public DynamoDbJobStore(DynamoDbClient dynamoDb, String table) {
    this.dynamoDb = dynamoDb;
    this.table = table;
  }

  @Override
  public ClaimResult claim(Job candidate, Instant now, Instant permanentFailureCutoff) {
    return put(
        candidate,
        CLAIM_CONDITION,
        Map.of(
            "#jobId", JobItems.JOB_ID,
            "#status", JobItems.STATUS,
            "#lease", JobItems.LEASE_EXPIRES_AT,
            "#error", JobItems.ERROR,
            "#retryable", JobItems.RETRYABLE,
            "#updatedAt", JobItems.UPDATED_AT,
            "#completion", JobItems.COMPLETION,
            "#retryAfter", JobItems.RETRY_AFTER),
        Map.of(
            ":pending", s(JobStatus.PENDING.name()),
            ":running", s(JobStatus.RUNNING.name()),
            ":failed", s(JobStatus.FAILED.name()),
            ":true", AttributeValue.fromBool(true),
            ":nowSeconds", n(now.getEpochSecond()),
            ":cutoffMillis", n(permanentFailureCutoff.toEpochMilli()),
            ":completionPending", s(JobItems.COMPLETION_PENDING)));
  }

  @Override
  public ClaimResult replaceSucceeded(Job candidate, String seenExecutionId) {
    return put(
        candidate,
        REPLACE_SUCCEEDED_CONDITION,
        Map.of(
            "#status", JobItems.STATUS,
            "#executionId", JobItems.EXECUTION_ID,
            "#completion", JobItems.COMPLETION),
        Map.of(
            ":succeeded", s(JobStatus.SUCCEEDED.name()),
            ":seen", s(seenExecutionId),
            ":completionPending", s(JobItems.COMPLETION_PENDING)));
  }

  private ClaimResult put(
      Job candidate,
      String condition,
      Map<String, String> names,
      Map<String, AttributeValue> values) {
    try {
      PutItemResponse replaced =
          dynamoDb.putItem(
              b ->
                  b.tableName(table)
                      .item(JobItems.toItem(candidate))
                      .conditionExpression(condition)
                      .expressionAttributeNames(names)
                      .expressionAttributeValues(values)
                      .returnValues(ReturnValue.ALL_OLD)
                      .returnValuesOnConditionCheckFailure(
                          ReturnValuesOnConditionCheckFailure.ALL_OLD));
      return new ClaimResult(true, carryOver(candidate, replaced.attributes()));
    } catch (ConditionalCheckFailedException lost) {
      if (lost.hasItem() && !lost.item().isEmpty()) {
        Job found = JobItems.fromItem(lost.item());
        // The SDK retried a PutItem whose first attempt applied: the record is this claim's own.
        // (What it replaced is unknown now, so its callbacks are not carried over.)
        return new ClaimResult(found.executionId().equals(candidate.executionId()), found);
      }
      // An endpoint that does not return the old item: fall back to a consistent read.
      Job existing =
          find(candidate.jobId())
              .orElseThrow(
                  () ->
                      new JobStoreException(
                          "claim of " + candidate.jobId() + " lost to a record that vanished",
                          lost));
      return new ClaimResult(existing.executionId().equals(candidate.executionId()), existing);
    } catch (SdkException e) {
      throw new JobStoreException("PutItem of job " + candidate.jobId() + " failed", e);
    }
  }

  /**
   * Carries what a replaced record hands on to the claim that replaced it, in one conditional
   * write: the callbacks of an execution that never ended (a lost execution: its lease lapsed while
   * PENDING or RUNNING), called back when the new execution ends; and the failure streak of a
   * retryable failure or a lost execution, so the backoff keeps growing. An ended record is
   * replaced only once its end was published ({@link #NOTICE_NOT_PENDING}), its callbacks with it,
   * so they stay behind ({@code docs/completion-events.md}). The new record holds no callbacks yet
   * (they are registered after a request is answered), so the list stays within its bounds. A
   * claimer that dies between the two writes loses both.
   *
   * @return the candidate as it now is (its failure streak carried)
   */
  private Job carryOver(Job candidate, Map<String, AttributeValue> replaced) {
    if (replaced == null || replaced.isEmpty() || !replaced.containsKey(JobItems.STATUS)) {
      return candidate;
    }
    JobStatus status = JobStatus.valueOf(replaced.get(JobItems.STATUS).s());
    boolean lost = !status.isTerminal();
    AttributeValue error = replaced.get(JobItems.ERROR);
    boolean retryableFailure =
        status == JobStatus.FAILED
            && error != null
            && error.hasM()
            && Boolean.TRUE.equals(error.m().get(JobItems.RETRYABLE).bool());
    AttributeValue streakItem = replaced.get(JobItems.FAILURE_STREAK);
    int streak =
        (lost || retryableFailure) && streakItem != null ? Integer.parseInt(streakItem.n()) : 0;
    AttributeValue callbacks = replaced.get(JobItems.CALLBACKS);
    boolean carryCallbacks =
        lost && callbacks != null && callbacks.hasL() && !callbacks.l().isEmpty();
    if (!carryCallbacks && streak == 0) {
      return candidate;
    }
    List<String> sets = new ArrayList<>();
    Map<String, String> names = new HashMap<>();
    Map<String, AttributeValue> values = new HashMap<>();
    names.put("#executionId", JobItems.EXECUTION_ID);
    values.put(":execution", s(candidate.executionId()));
    String add = "";
    if (carryCallbacks) {
      sets.add("#callbacks = list_append(if_not_exists(#callbacks, :none), :carried)");
      names.put("#callbacks", JobItems.CALLBACKS);
      names.put("#callbackBytes", JobItems.CALLBACK_BYTES);
      values.put(":none", AttributeValue.fromL(List.of()));
      values.put(":carried", callbacks);
      values.put(
          ":bytes", n(callbacks.l().stream().mapToLong(DynamoDbCompletionOutbox::sizeOf).sum()));
      add = " ADD #callbackBytes :bytes";
    }
    if (streak > 0) {
      sets.add("#failureStreak = :streak");
      names.put("#failureStreak", JobItems.FAILURE_STREAK);
      values.put(":streak", n(streak));
    }
    String expression = "SET " + String.join(", ", sets) + add;
    try {
      dynamoDb.updateItem(
          b ->
              b.tableName(table)
                  .key(Map.of(JobItems.JOB_ID, s(candidate.jobId())))
                  .updateExpression(expression)
                  .conditionExpression("#executionId = :execution")
                  .expressionAttributeNames(names)
                  .expressionAttributeValues(values));
    } catch (ConditionalCheckFailedException claimedAgain) {
      // another claim replaced this one at once: it carries what it replaced
    } catch (SdkException e) {
      throw new JobStoreException(
          "UpdateItem carrying callbacks over to job " + candidate.jobId() + " failed", e);
    }
    return candidate.withFailureStreak(streak);
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
  public boolean markDispatched(
      String jobId, String executionId, int stepIndex, Instant leaseExpiresAt) {
    return updateAtStep(
        jobId,
        executionId,
        stepIndex,
        " AND #steps[" + stepIndex + "].#runStatus = :pendingRun",
        "SET #steps[" + stepIndex + "].#runStatus = :queuedRun, #lease = :lease",
        Map.of(
            "#steps", JobItems.STEPS,
            "#runStatus", "status",
            "#lease", JobItems.LEASE_EXPIRES_AT),
        Map.of(
            ":pendingRun", s(StepRecord.PENDING),
            ":queuedRun", s(StepRecord.QUEUED),
            ":lease", n(leaseExpiresAt.getEpochSecond())));
  }

  @Override
  public boolean recordStarted(
      String jobId,
      String executionId,
      int stepIndex,
      StepRecord run,
      Instant now,
      Instant leaseExpiresAt) {
    return updateAtStep(
        jobId,
        executionId,
        stepIndex,
        "SET #steps["
            + stepIndex
            + "] = :run, #status = :running, #updatedAt = :now, #lease = :lease",
        Map.of(
            "#steps", JobItems.STEPS,
            "#updatedAt", JobItems.UPDATED_AT,
            "#lease", JobItems.LEASE_EXPIRES_AT),
        Map.of(
            ":run", JobItems.runItem(run),
            ":now", n(now.toEpochMilli()),
            ":lease", n(leaseExpiresAt.getEpochSecond())));
  }

  @Override
  public boolean recordSuccess(
      String jobId,
      String executionId,
      int stepIndex,
      StepRecord run,
      boolean lastStep,
      Instant now,
      Instant leaseExpiresAt) {
    Update update = successUpdate(stepIndex, run, lastStep, now, leaseExpiresAt);
    return updateAtStep(
        jobId, executionId, stepIndex, update.expression(), update.names(), update.values());
  }

  @Override
  public StepWrite recordAdvance(
      String jobId,
      String executionId,
      int stepIndex,
      StepRecord run,
      Instant now,
      Instant leaseExpiresAt) {
    Update update = successUpdate(stepIndex, run, false, now, leaseExpiresAt);
    return writeAtStep(
        jobId,
        executionId,
        stepIndex,
        " AND size(#steps) > :next",
        update.expression(),
        update.names(),
        update.values(),
        true);
  }

  @Override
  public StepWrite recordLastSuccess(
      String jobId, String executionId, int stepIndex, StepRecord run, Instant now) {
    Update update = successUpdate(stepIndex, run, true, now, now);
    Map<String, AttributeValue> values = new HashMap<>(update.values());
    values.put(":stepCount", n(stepIndex + 1L));
    return writeAtStep(
        jobId,
        executionId,
        stepIndex,
        " AND size(#steps) = :stepCount",
        update.expression(),
        update.names(),
        values,
        true);
  }

  /** An update expression with its attribute names and values. */
  private record Update(
      String expression, Map<String, String> names, Map<String, AttributeValue> values) {}

  /** Step {@code stepIndex} SUCCEEDED; the job SUCCEEDED (completion pending) or at the next. */
  private static Update successUpdate(
      int stepIndex, StepRecord run, boolean lastStep, Instant now, Instant leaseExpiresAt) {
    JobStatus next = lastStep ? JobStatus.SUCCEEDED : JobStatus.RUNNING;
    Map<String, String> names = new HashMap<>();
    names.put("#steps", JobItems.STEPS);
    names.put("#updatedAt", JobItems.UPDATED_AT);
    names.put("#lease", JobItems.LEASE_EXPIRES_AT);
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":run", JobItems.runItem(run));
    values.put(":next", n(stepIndex + 1L));
    values.put(":newStatus", s(next.name()));
    values.put(":now", n(now.toEpochMilli()));
    values.put(":lease", n(leaseExpiresAt.getEpochSecond()));
    String completion = "";
    if (lastStep) {
      completion = ", " + COMPLETION_PENDING_UPDATE;
      names.put("#completion", JobItems.COMPLETION);
      values.put(":completionPending", s(JobItems.COMPLETION_PENDING));
    }
    return new Update(
        "SET #steps["
            + stepIndex
            + "] = :run, #currentStep = :next, #status = :newStatus,"
            + " #updatedAt = :now, #lease = :lease"
            + completion,
        names,
        values);
  }

  @Override
  public boolean recordFailure(
      String jobId,
      String executionId,
      int stepIndex,
      StepRecord run,
      JobError error,
      Instant now,
      int failureStreak,
      Instant retryAfter) {
    Map<String, String> names = new HashMap<>();
    names.put("#steps", JobItems.STEPS);
    names.put("#error", JobItems.ERROR);
    names.put("#updatedAt", JobItems.UPDATED_AT);
    names.put("#completion", JobItems.COMPLETION);
    names.put("#failureStreak", JobItems.FAILURE_STREAK);
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":run", JobItems.runItem(run));
    values.put(":newStatus", s(JobStatus.FAILED.name()));
    values.put(":error", JobItems.errorItem(error));
    values.put(":now", n(now.toEpochMilli()));
    values.put(":completionPending", s(JobItems.COMPLETION_PENDING));
    values.put(":streak", n(failureStreak));
    String hold = "";
    if (retryAfter != null) {
      names.put("#retryAfter", JobItems.RETRY_AFTER);
      values.put(":retryAfter", n(retryAfter.getEpochSecond()));
      hold = ", #retryAfter = :retryAfter";
    }
    return updateAtStep(
        jobId,
        executionId,
        stepIndex,
        "SET #steps["
            + stepIndex
            + "] = :run, #status = :newStatus, #error = :error, #updatedAt = :now,"
            + " #failureStreak = :streak"
            + hold
            + ", "
            + COMPLETION_PENDING_UPDATE,
        names,
        values);
  }

  @Override
  public boolean recordAdopted(
      String jobId,
      String executionId,
      JobStatus seen,
      String newExecutionId,
      int lastStep,
      StepRecord run,
      Instant now) {
    boolean failed = seen == JobStatus.FAILED;
    Map<String, String> names = new HashMap<>();
    names.put("#executionId", JobItems.EXECUTION_ID);
    names.put("#status", JobItems.STATUS);
    names.put("#currentStep", JobItems.CURRENT_STEP);
    names.put("#steps", JobItems.STEPS);
    names.put("#updatedAt", JobItems.UPDATED_AT);
    names.put("#completion", JobItems.COMPLETION);
    names.put("#error", JobItems.ERROR);
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":execution", s(executionId));
    values.put(":seen", s(seen.name()));
    values.put(":new", s(newExecutionId));
    values.put(":succeeded", s(JobStatus.SUCCEEDED.name()));
    values.put(":run", JobItems.runItem(run));
    values.put(":count", n(lastStep + 1L));
    values.put(":now", n(now.toEpochMilli()));
    values.put(":completionPending", s(JobItems.COMPLETION_PENDING));
    String condition = "#executionId = :execution AND #status = :seen";
    String remove = " REMOVE #error";
    if (failed) {
      condition += " AND (attribute_not_exists(#completion) OR #completion <> :completionPending)";
      names.put("#callbacks", JobItems.CALLBACKS);
      remove += ", #callbacks";
    }
    String finalCondition = condition + " AND size(#steps) = :count";
    String expression =
        "SET #status = :succeeded, #executionId = :new, #currentStep = :count, #steps["
            + lastStep
            + "] = :run, #updatedAt = :now, "
            + COMPLETION_PENDING_UPDATE
            + remove;
    try {
      dynamoDb.updateItem(
          b ->
              b.tableName(table)
                  .key(Map.of(JobItems.JOB_ID, s(jobId)))
                  .updateExpression(expression)
                  .conditionExpression(finalCondition)
                  .expressionAttributeNames(names)
                  .expressionAttributeValues(values));
      return true;
    } catch (ConditionalCheckFailedException changed) {
      return false;
    } catch (SdkException e) {
      throw new JobStoreException("UpdateItem (adopt) of job " + jobId + " failed", e);
    }
  }

  private boolean updateAtStep(
      String jobId,
      String executionId,
      int stepIndex,
      String expression,
      Map<String, String> names,
      Map<String, AttributeValue> values) {
    return updateAtStep(jobId, executionId, stepIndex, "", expression, names, values);
  }

  /**
   * One {@code UpdateItem} of {@code expression} under {@link #AT_STEP_CONDITION} followed by
   * {@code extraCondition} (empty, or starting with {@code " AND "}).
   */
  private boolean updateAtStep(
      String jobId,
      String executionId,
      int stepIndex,
      String extraCondition,
      String expression,
      Map<String, String> names,
      Map<String, AttributeValue> values) {
    return writeAtStep(
            jobId, executionId, stepIndex, extraCondition, expression, names, values, false)
        .recorded();
  }

  /**
   * One {@code UpdateItem} of {@code expression} under {@link #AT_STEP_CONDITION} followed by
   * {@code extraCondition}; when {@code returnRecord}, the item comes back either way, as written
   * ({@code ReturnValues.ALL_NEW}) or, when the condition fails, as it is ({@code
   * ReturnValuesOnConditionCheckFailure.ALL_OLD}): no read request of its own.
   */
  private StepWrite writeAtStep(
      String jobId,
      String executionId,
      int stepIndex,
      String extraCondition,
      String expression,
      Map<String, String> names,
      Map<String, AttributeValue> values,
      boolean returnRecord) {
    Map<String, String> allNames = new HashMap<>(names);
    allNames.put("#executionId", JobItems.EXECUTION_ID);
    allNames.put("#currentStep", JobItems.CURRENT_STEP);
    allNames.put("#status", JobItems.STATUS);
    Map<String, AttributeValue> allValues = new HashMap<>(values);
    allValues.put(":execution", s(executionId == null ? "" : executionId));
    allValues.put(":step", n(stepIndex));
    allValues.put(":pending", s(JobStatus.PENDING.name()));
    allValues.put(":running", s(JobStatus.RUNNING.name()));
    try {
      UpdateItemResponse response =
          dynamoDb.updateItem(
              b ->
                  b.tableName(table)
                      .key(Map.of(JobItems.JOB_ID, s(jobId)))
                      .updateExpression(expression)
                      .conditionExpression(AT_STEP_CONDITION + extraCondition)
                      .expressionAttributeNames(allNames)
                      .expressionAttributeValues(allValues)
                      .returnValues(returnRecord ? ReturnValue.ALL_NEW : ReturnValue.NONE)
                      .returnValuesOnConditionCheckFailure(
                          returnRecord
                              ? ReturnValuesOnConditionCheckFailure.ALL_OLD
                              : ReturnValuesOnConditionCheckFailure.NONE));
      return response.hasAttributes() && !response.attributes().isEmpty()
          ? StepWrite.applied(JobItems.fromItem(response.attributes()))
          : StepWrite.applied();
    } catch (ConditionalCheckFailedException staleOrDuplicate) {
      return StepWrite.notApplied(
          staleOrDuplicate.hasItem() && !staleOrDuplicate.item().isEmpty()
              ? Optional.of(JobItems.fromItem(staleOrDuplicate.item()))
              : Optional.empty());
    } catch (SdkException e) {
      throw new JobStoreException("UpdateItem of job " + jobId + " failed", e);
    }
  }
}
