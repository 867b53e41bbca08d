package dev.derive.coordinator.aws;

import static dev.derive.coordinator.aws.JobItems.n;
import static dev.derive.coordinator.aws.JobItems.s;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.derive.coordinator.claim.JobStoreException;
import dev.derive.coordinator.completion.Callback;
import dev.derive.coordinator.completion.CompletionOutbox;
import dev.derive.coordinator.job.Job;
import dev.derive.protocol.JobStatus;
import java.util.ArrayList;
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

/**
 * The {@link CompletionOutbox} on the jobs table: attribute {@code completion} ({@code PENDING},
 * set by the terminal writes of {@link DynamoDbJobStore}, then {@code SENT}) and {@code callbacks}
 * (a list of maps {@code id}, {@code url}, {@code request} as JSON text), appended with {@code
 * list_append} while the job runs.
 */
public final class DynamoDbCompletionOutbox implements CompletionOutbox {
  /**
   * {@link #register}: the job runs and has room for one more callback, by count and by size (the
   * callbacks' bytes so far, {@code callbackBytes}, at most the budget less this one's).
   */
  static final String REGISTER_CONDITION =
      "attribute_exists(#jobId) AND #status IN (:pending, :running)"
          + " AND (attribute_not_exists(#callbacks) OR size(#callbacks) < :max)"
          + " AND (attribute_not_exists(#callbackBytes) OR #callbackBytes <= :room)";

  /** {@link #markSent}: the notice of this execution is pending. */
  static final String MARK_SENT_CONDITION = "#executionId = :execution AND #completion = :pending";

  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private final DynamoDbClient dynamoDb;
  private final String table;

  /** On the jobs table {@code table}. */
  public DynamoDbCompletionOutbox(DynamoDbClient dynamoDb, String table) {
    this.dynamoDb = dynamoDb;
    this.table = table;
  }

  /**
   * {@inheritDoc} Right after this thread's write that ended the job, from the item that write
   * returned ({@link JustEnded}); otherwise from a strongly consistent read.
   */
  @Override
  public Optional<PendingCompletion> pending(String jobId) {
    Map<String, AttributeValue> written = JustEnded.take(table, jobId);
    Map<String, AttributeValue> item = written != null ? written : read(jobId);
    if (item == null) {
      return Optional.empty();
    }
    AttributeValue notice = item.get(JobItems.COMPLETION);
    Job job = JobItems.fromItem(item);
    if (notice == null
        || !JobItems.COMPLETION_PENDING.equals(notice.s())
        || !job.status().isTerminal()) {
      return Optional.empty();
    }
    return Optional.of(new PendingCompletion(job, callbacks(item)));
  }

  @Override
  public boolean markSent(String jobId, String executionId) {
    try {
      dynamoDb.updateItem(
          b ->
              b.tableName(table)
                  .key(Map.of(JobItems.JOB_ID, s(jobId)))
                  .updateExpression("SET #completion = :sent")
                  .conditionExpression(MARK_SENT_CONDITION)
                  .expressionAttributeNames(
                      Map.of(
                          "#executionId",
                          JobItems.EXECUTION_ID,
                          "#completion",
                          JobItems.COMPLETION))
                  .expressionAttributeValues(
                      Map.of(
                          ":execution", s(executionId),
                          ":pending", s(JobItems.COMPLETION_PENDING),
                          ":sent", s(JobItems.COMPLETION_SENT))));
      return true;
    } catch (ConditionalCheckFailedException notPending) {
      return false;
    } catch (SdkException e) {
      throw new JobStoreException("UpdateItem (completion sent) of job " + jobId + " failed", e);
    }
  }

  @Override
  public Registration register(String jobId, Callback callback) {
    AttributeValue entry = callbackItem(callback);
    long size = sizeOf(entry);
    if (size > MAX_CALLBACK_BYTES) {
      return new Registration(Registered.FULL, null);
    }
    try {
      Map<String, AttributeValue> stored =
          dynamoDb
              .updateItem(
                  b ->
                      b.tableName(table)
                          .key(Map.of(JobItems.JOB_ID, s(jobId)))
                          .updateExpression(
                              "SET #callbacks = list_append(if_not_exists(#callbacks, :none),"
                                  + " :one) ADD #callbackBytes :size")
                          .conditionExpression(REGISTER_CONDITION)
                          .expressionAttributeNames(
                              Map.of(
                                  "#jobId", JobItems.JOB_ID,
                                  "#status", JobItems.STATUS,
                                  "#callbacks", JobItems.CALLBACKS,
                                  "#callbackBytes", JobItems.CALLBACK_BYTES))
                          .expressionAttributeValues(
                              Map.of(
                                  ":pending", s(JobStatus.PENDING.name()),
                                  ":running", s(JobStatus.RUNNING.name()),
                                  ":max", n(MAX_CALLBACKS),
                                  ":room", n(MAX_CALLBACK_BYTES - size),
                                  ":size", n(size),
                                  ":none", AttributeValue.fromL(List.of()),
                                  ":one", AttributeValue.fromL(List.of(entry))))
                          .returnValues(ReturnValue.ALL_NEW)
                          .returnValuesOnConditionCheckFailure(
                              ReturnValuesOnConditionCheckFailure.ALL_OLD))
              .attributes();
      return new Registration(
          Registered.ON_JOB, stored == null || stored.isEmpty() ? null : JobItems.fromItem(stored));
    } catch (ConditionalCheckFailedException refused) {
      Map<String, AttributeValue> item =
          refused.hasItem() && !refused.item().isEmpty() ? refused.item() : read(jobId);
      if (item == null) {
        return new Registration(Registered.NO_JOB, null);
      }
      Job job = JobItems.fromItem(item);
      return new Registration(
          job.status().isTerminal() ? Registered.JOB_ENDED : Registered.FULL, job);
    } catch (SdkException e) {
      throw new JobStoreException("UpdateItem (callback) of job " + jobId + " failed", e);
    }
  }

  /** The job's item, read strongly consistent; {@code null} when there is none. */
  private Map<String, AttributeValue> read(String jobId) {
    try {
      GetItemResponse response =
          dynamoDb.getItem(
              b -> b.tableName(table).key(Map.of(JobItems.JOB_ID, s(jobId))).consistentRead(true));
      return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
    } catch (SdkException e) {
      throw new JobStoreException("GetItem of job " + jobId + " failed", e);
    }
  }

  /**
   * The bytes a callback entry adds to the item, as DynamoDB counts a map (the UTF-8 lengths of its
   * names and strings, plus a few bytes per element; rounded up generously).
   */
  static long sizeOf(AttributeValue callbackItem) {
    long bytes = 16;
    for (Map.Entry<String, AttributeValue> e : callbackItem.m().entrySet()) {
      bytes +=
          e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
              + e.getValue().s().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
              + 4;
    }
    return bytes;
  }

  private static AttributeValue callbackItem(Callback callback) {
    try {
      return AttributeValue.fromM(
          Map.of(
              "id", s(callback.id()),
              "url", s(callback.url()),
              "request", s(JSON.writeValueAsString(callback.request()))));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a request echo is always serialisable", e);
    }
  }

  private static List<Callback> callbacks(Map<String, AttributeValue> item) {
    AttributeValue list = item.get(JobItems.CALLBACKS);
    List<Callback> out = new ArrayList<>();
    if (list == null || !list.hasL()) {
      return out;
    }
    for (AttributeValue entry : list.l()) {
      Map<String, AttributeValue> m = entry.m();
      try {
        Map<String, Object> request =
            JSON.readValue(m.get("request").s(), new TypeReference<Map<String, Object>>() {});
        out.add(new Callback(m.get("id").s(), m.get("url").s(), request));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("job record holds an unreadable callback", e);
      }
    }
    return out;
  }
}
