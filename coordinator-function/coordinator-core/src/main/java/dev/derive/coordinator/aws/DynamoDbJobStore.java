package dev.derive.coordinator.aws;

import static dev.derive.coordinator.aws.JobItems.n;
import static dev.derive.coordinator.aws.JobItems.s;

import dev.derive.coordinator.claim.ClaimResult;
import dev.derive.coordinator.claim.JobStore;
import dev.derive.coordinator.claim.JobStoreException;
import dev.derive.coordinator.claim.StepSuccess;
import dev.derive.coordinator.claim.StepWrite;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.Standing;
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
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The {@link JobStore} on a DynamoDB table with partition key {@code jobId} (S) and TTL attribute
 * {@code expiresAt}: only the translation to condition expressions, attribute names and SDK
 * exceptions. A claim is one conditional {@code PutItem} (a take-over of a lost execution one
 * conditional {@code UpdateItem} that leaves the callbacks in the item) that returns the existing
 * item when the condition fails ({@code ReturnValuesOnConditionCheckFailure.ALL_OLD}), so a loser
 * joins without a second read, and a retried write that had applied finds its own execution; step
 * writes are conditional {@code UpdateItem}s on the job being at the step.
 */
// Over 300 lines because it is every JobStore write, sharing one condition vocabulary.
public final class DynamoDbJobStore implements JobStore {
  /**
   * An ended record is replaced only once its end is published (its notice is not pending): the end
   * of an execution is announced before its record goes, so no callback registered on it is carried
   * to the next execution after it was queued with this one's end.
   */
  static final Condition NOTICE_NOT_PENDING =
      new Condition(
          "attribute_not_exists(#completion) OR #completion <> :completionPending",
          Map.of("#completion", JobItems.COMPLETION),
          Map.of(":completionPending", s(JobItems.COMPLETION_PENDING)));

  /**
   * {@link JobStore#claim}: no record, or one that stands {@link Standing#FAILED_RECLAIMABLE} whose
   * end is published. Over a retryable failure the candidate must carry the record's failure streak
   * ({@code :streak}), so the streak is written by the claim itself, not by a write after it.
   */
  static Condition claimCondition(int streak, Instant now, Instant permanentFailureCutoff) {
    return new Condition(
            "attribute_not_exists(#jobId)", Map.of("#jobId", JobItems.JOB_ID), Map.of())
        .or(
            StandingConditions.of(Standing.FAILED_RECLAIMABLE, now, permanentFailureCutoff)
                .and(NOTICE_NOT_PENDING)
                .and(StandingConditions.retryable().not().or(streakCarried(streak))));
  }

  /** The record's failure streak is {@code :streak} (an absent one counts as 0). */
  private static Condition streakCarried(int streak) {
    return new Condition(
        streak == 0
            ? "attribute_not_exists(#failureStreak) OR #failureStreak = :streak"
            : "#failureStreak = :streak",
        Map.of("#failureStreak", JobItems.FAILURE_STREAK),
        Map.of(":streak", n(streak)));
  }

  /** {@link JobStore#takeOver}: the lost execution seen, still {@link Standing#LOST}. */
  static Condition takeOverCondition(String lostExecutionId, Instant now) {
    return executionIs(":lost", lostExecutionId)
        .and(StandingConditions.of(Standing.LOST, now, now));
  }

  /** {@link JobStore#replaceSucceeded}: the SUCCEEDED record of the execution seen, published. */
  static Condition replaceSucceededCondition(String seenExecutionId) {
    return StandingConditions.of(Standing.SUCCEEDED, Instant.EPOCH, Instant.EPOCH)
        .and(executionIs(":seen", seenExecutionId))
        .and(NOTICE_NOT_PENDING);
  }

  private static Condition executionIs(String placeholder, String executionId) {
    return new Condition(
        "#executionId = " + placeholder,
        Map.of("#executionId", JobItems.EXECUTION_ID),
        Map.of(placeholder, s(executionId)));
  }

  /**
   * The attributes a take-over leaves as they are: what the lost execution hands on ({@code
   * docs/completion-events.md}).
   */
  private static final java.util.Set<String> HANDED_ON =
      java.util.Set.of(JobItems.CALLBACKS, JobItems.CALLBACK_BYTES, JobItems.FAILURE_STREAK);

  /**
   * The optional attributes a take-over removes when the candidate has none (the {@code output} of
   * a {@link JobRecordShape#COMPACT} candidate, the {@code stepCount} of an older record).
   */
  private static final List<String> OPTIONAL =
      List.of(
          JobItems.ERROR,
          JobItems.TRACE_ID,
          JobItems.RETRY_AFTER,
          JobItems.COMPLETION,
          JobItems.OUTPUT,
          JobItems.STEP_COUNT);

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
  private final JobRecordShape shape;

  /**
   * Stores jobs in {@code table} (named by {@code JOBS_TABLE}) in the {@link JobRecordShape#FULL}
   * shape, which every release reads.
   */
  public DynamoDbJobStore(DynamoDbClient dynamoDb, String table) {
    this(dynamoDb, table, JobRecordShape.FULL);
  }

  /**
   * Stores jobs in {@code table}, writing new records in {@code shape} (both are read; {@code
   * docs/job-lifecycle.md}, "The record's shape across a deploy").
   */
  public DynamoDbJobStore(DynamoDbClient dynamoDb, String table, JobRecordShape shape) {
    this.dynamoDb = dynamoDb;
    this.table = table;
    this.shape = shape;
  }

  @Override
  public ClaimResult claim(Job candidate, Instant now, Instant permanentFailureCutoff) {
    Job attempt = candidate;
    for (int tries = 1; ; tries++) {
      ClaimResult result =
          put(attempt, claimCondition(attempt.failureStreak(), now, permanentFailureCutoff));
      Job found = result.job();
      boolean otherStreak =
          found.status() == JobStatus.FAILED
              && found.error() != null
              && found.error().retryable()
              && found.failureStreak() != attempt.failureStreak();
      if (result.won() || !otherStreak || tries == 2) {
        return result;
      }
      // a retryable failure is claimed with its streak carried: once more with the streak seen
      attempt = candidate.withFailureStreak(found.failureStreak());
    }
  }

  @Override
  public ClaimResult replaceSucceeded(Job candidate, String seenExecutionId) {
    return put(candidate, replaceSucceededCondition(seenExecutionId));
  }

  /**
   * One conditional {@code PutItem} of {@code candidate}: won, or lost with the record as it is
   * ({@code ReturnValuesOnConditionCheckFailure.ALL_OLD}, so a loser joins without a second read).
   * A record of the candidate's own execution is the SDK's retry of a write that had applied: won.
   */
  private ClaimResult put(Job candidate, Condition condition) {
    try {
      dynamoDb.putItem(
          b ->
              b.tableName(table)
                  .item(JobItems.toItem(candidate, shape))
                  .conditionExpression(condition.text())
                  .expressionAttributeNames(condition.names())
                  .expressionAttributeValues(condition.values())
                  .returnValuesOnConditionCheckFailure(
                      ReturnValuesOnConditionCheckFailure.ALL_OLD));
      return new ClaimResult(true, candidate);
    } catch (ConditionalCheckFailedException lost) {
      return claimLost(candidate, lost);
    } catch (SdkException e) {
      throw new JobStoreException("PutItem of job " + candidate.jobId() + " failed", e);
    }
  }

  /**
   * A claim write whose condition failed: the record it found (from the exception, or a consistent
   * read from an endpoint that does not return it), won if it is the candidate's own execution.
   */
  private ClaimResult claimLost(Job candidate, ConditionalCheckFailedException lost) {
    Job found =
        lost.hasItem() && !lost.item().isEmpty()
            ? JobItems.fromItem(lost.item())
            : find(candidate.jobId())
                .orElseThrow(
                    () ->
                        new JobStoreException(
                            "claim of " + candidate.jobId() + " lost to a record that vanished",
                            lost));
    return new ClaimResult(found.executionId().equals(candidate.executionId()), found);
  }

  /**
   * One conditional {@code UpdateItem} that sets every attribute of {@code candidate} but those the
   * lost execution hands on ({@link #HANDED_ON}: its callbacks, their bytes and its failure streak
   * stay as they are in the item) and removes the optional ones the candidate lacks.
   */
  @Override
  public ClaimResult takeOver(Job candidate, String lostExecutionId, Instant now) {
    Map<String, AttributeValue> item = JobItems.toItem(candidate, shape);
    Map<String, String> names = new HashMap<>();
    Map<String, AttributeValue> values = new HashMap<>();
    List<String> sets = new ArrayList<>();
    item.forEach(
        (name, value) -> {
          if (!name.equals(JobItems.JOB_ID) && !HANDED_ON.contains(name)) {
            names.put("#" + name, name);
            values.put(":" + name, value);
            sets.add("#" + name + " = :" + name);
          }
        });
    List<String> removes = new ArrayList<>();
    for (String name : OPTIONAL) {
      if (!item.containsKey(name)) {
        names.put("#" + name, name);
        removes.add("#" + name);
      }
    }
    Condition condition = takeOverCondition(lostExecutionId, now);
    names.putAll(condition.names());
    values.putAll(condition.values());
    java.util.Collections.sort(sets);
    String expression =
        "SET "
            + String.join(", ", sets)
            + (removes.isEmpty() ? "" : " REMOVE " + String.join(", ", removes));
    try {
      UpdateItemResponse written =
          dynamoDb.updateItem(
              b ->
                  b.tableName(table)
                      .key(Map.of(JobItems.JOB_ID, s(candidate.jobId())))
                      .updateExpression(expression)
                      .conditionExpression(condition.text())
                      .expressionAttributeNames(names)
                      .expressionAttributeValues(values)
                      .returnValues(ReturnValue.ALL_NEW)
                      .returnValuesOnConditionCheckFailure(
                          ReturnValuesOnConditionCheckFailure.ALL_OLD));
      // the candidate as written, with the failure streak it kept
      return new ClaimResult(
          true,
          candidate.withFailureStreak(JobItems.fromItem(written.attributes()).failureStreak()));
    } catch (ConditionalCheckFailedException lost) {
      return claimLost(candidate, lost);
    } catch (SdkException e) {
      throw new JobStoreException(
          "UpdateItem (take-over) of job " + candidate.jobId() + " failed", e);
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
            ":pendingRun", s(StepRecord.PENDING.name()),
            ":queuedRun", s(StepRecord.QUEUED.name()),
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
            ":run", JobItems.runItem(run, shape),
            ":now", n(now.toEpochMilli()),
            ":lease", n(leaseExpiresAt.getEpochSecond())));
  }

  /**
   * One conditional {@code UpdateItem}, read-free, for either kind of success: at the step and, for
   * the last step, {@code size(steps) = i+1} (the job SUCCEEDED, completion pending), else {@code
   * size(steps) > i+1} (the job at the next step); the item comes back either way.
   */
  @Override
  public StepWrite recordSuccess(StepSuccess success) {
    int stepIndex = success.stepIndex();
    Update update =
        successUpdate(
            stepIndex,
            success.run(),
            success.lastStep(),
            success.at(),
            success.leaseExpiresAt(),
            shape);
    Map<String, AttributeValue> values = new HashMap<>(update.values());
    String planCondition;
    if (success.lastStep()) {
      values.put(":stepCount", n(stepIndex + 1L));
      planCondition = " AND size(#steps) = :stepCount";
    } else {
      planCondition = " AND size(#steps) > :next";
    }
    return writeAtStep(
        success.jobId(),
        success.executionId(),
        stepIndex,
        planCondition,
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
      int stepIndex,
      StepRecord run,
      boolean lastStep,
      Instant now,
      Instant leaseExpiresAt,
      JobRecordShape shape) {
    JobStatus next = lastStep ? JobStatus.SUCCEEDED : JobStatus.RUNNING;
    Map<String, String> names = new HashMap<>();
    names.put("#steps", JobItems.STEPS);
    names.put("#updatedAt", JobItems.UPDATED_AT);
    names.put("#lease", JobItems.LEASE_EXPIRES_AT);
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":run", JobItems.runItem(run, shape));
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
    values.put(":run", JobItems.runItem(run, shape));
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
    return writeAtStep(
            jobId,
            executionId,
            stepIndex,
            "",
            "SET #steps["
                + stepIndex
                + "] = :run, #status = :newStatus, #error = :error, #updatedAt = :now,"
                + " #failureStreak = :streak"
                + hold
                + ", "
                + COMPLETION_PENDING_UPDATE,
            names,
            values,
            true)
        .recorded();
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
    values.put(":run", JobItems.runItem(run, shape));
    values.put(":count", n(lastStep + 1L));
    values.put(":now", n(now.toEpochMilli()));
    values.put(":completionPending", s(JobItems.COMPLETION_PENDING));
    String condition = "#executionId = :execution AND #status = :seen";
    String remove = " REMOVE #error";
    if (failed) {
      condition += " AND (" + NOTICE_NOT_PENDING.text() + ")";
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
      if (!response.hasAttributes() || response.attributes().isEmpty()) {
        return StepWrite.applied();
      }
      Job written = JobItems.fromItem(response.attributes());
      if (written.status().isTerminal()) {
        // the outbox's next read of this job on this thread is this item
        JustEnded.remember(table, response.attributes());
      }
      return StepWrite.applied(written);
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
