package dev.derive.coordinator.aws;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.plan.Plan;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.ObjectRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Maps a {@link Job} to a DynamoDB item of the jobs table and back. Attributes: {@code jobId} (S,
 * partition key), {@code status}, {@code plan} (the steps as JSON), {@code currentStep}, {@code
 * stepCount}, {@code source} and {@code output} (maps), {@code steps} (a list of per-step maps with
 * epoch-millisecond timings), {@code error}, {@code createdAt}/{@code updatedAt} (epoch ms), {@code
 * leaseExpiresAt} (epoch s), {@code expiresAt} (epoch s, the table's TTL attribute), {@code
 * traceId}, {@code executionId}, {@code failureStreak} (N) and {@code retryAfter} (epoch s); {@code
 * completion} and {@code callbacks} belong to the {@link DynamoDbCompletionOutbox}.
 */
final class JobItems {
  static final String JOB_ID = "jobId";
  static final String STATUS = "status";
  static final String PLAN = "plan";
  static final String CURRENT_STEP = "currentStep";
  static final String STEP_COUNT = "stepCount";
  static final String SOURCE = "source";
  static final String OUTPUT = "output";
  static final String STEPS = "steps";
  static final String SUMMARY = "summary";
  static final String ERROR = "error";
  static final String RETRYABLE = "retryable";
  static final String CREATED_AT = "createdAt";
  static final String UPDATED_AT = "updatedAt";
  static final String LEASE_EXPIRES_AT = "leaseExpiresAt";
  static final String EXPIRES_AT = "expiresAt";
  static final String TRACE_ID = "traceId";
  static final String EXECUTION_ID = "executionId";
  static final String FAILURE_STREAK = "failureStreak";
  static final String RETRY_AFTER = "retryAfter";

  /**
   * The completion notice (outbox): {@value #COMPLETION_PENDING}, then {@value #COMPLETION_SENT}.
   */
  static final String COMPLETION = "completion";

  static final String COMPLETION_PENDING = "PENDING";
  static final String COMPLETION_SENT = "SENT";

  /** Callbacks registered while the job runs ({@link DynamoDbCompletionOutbox}). */
  static final String CALLBACKS = "callbacks";

  /** The bytes of {@link #CALLBACKS} so far (N), bounding the item's size. */
  static final String CALLBACK_BYTES = "callbackBytes";

  private static final ObjectMapper JSON =
      JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  private JobItems() {}

  static Map<String, AttributeValue> toItem(Job job) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put(JOB_ID, s(job.jobId()));
    item.put(STATUS, s(job.status().name()));
    item.put(PLAN, s(planJson(job.plan())));
    item.put(CURRENT_STEP, n(job.currentStep()));
    item.put(STEP_COUNT, n(job.plan().size()));
    item.put(SOURCE, sourceItem(job.source()));
    item.put(OUTPUT, refItem(job.output()));
    List<AttributeValue> runs = new ArrayList<>();
    job.steps().forEach(r -> runs.add(runItem(r)));
    item.put(STEPS, AttributeValue.fromL(runs));
    if (job.error() != null) {
      item.put(ERROR, errorItem(job.error()));
    }
    item.put(CREATED_AT, n(job.createdAt().toEpochMilli()));
    item.put(UPDATED_AT, n(job.updatedAt().toEpochMilli()));
    item.put(LEASE_EXPIRES_AT, n(job.leaseExpiresAt().getEpochSecond()));
    item.put(EXPIRES_AT, n(job.expiresAt().getEpochSecond()));
    if (job.traceId() != null) {
      item.put(TRACE_ID, s(job.traceId()));
    }
    item.put(EXECUTION_ID, s(job.executionId()));
    if (job.failureStreak() > 0) {
      item.put(FAILURE_STREAK, n(job.failureStreak()));
    }
    if (job.retryAfter() != null) {
      item.put(RETRY_AFTER, n(job.retryAfter().getEpochSecond()));
    }
    return item;
  }

  static Job fromItem(Map<String, AttributeValue> item) {
    Map<String, AttributeValue> source = item.get(SOURCE).m();
    List<StepRecord> runs = new ArrayList<>();
    for (AttributeValue run : item.get(STEPS).l()) {
      runs.add(run(run.m()));
    }
    AttributeValue error = item.get(ERROR);
    return new Job(
        item.get(JOB_ID).s(),
        JobStatus.valueOf(item.get(STATUS).s()),
        plan(item.get(PLAN).s()),
        Integer.parseInt(item.get(CURRENT_STEP).n()),
        new SourceIdentity(
            str(source, "bucket"),
            str(source, "key"),
            str(source, "versionId"),
            str(source, "etag"),
            Long.parseLong(source.get("sizeBytes").n()),
            str(source, "mediaType"),
            str(source, "sha256")),
        ref(item.get(OUTPUT).m()),
        runs,
        error == null || error.m() == null || !error.hasM() ? null : error(error.m()),
        Instant.ofEpochMilli(Long.parseLong(item.get(CREATED_AT).n())),
        Instant.ofEpochMilli(Long.parseLong(item.get(UPDATED_AT).n())),
        Instant.ofEpochSecond(Long.parseLong(item.get(LEASE_EXPIRES_AT).n())),
        Instant.ofEpochSecond(Long.parseLong(item.get(EXPIRES_AT).n())),
        item.containsKey(TRACE_ID) ? item.get(TRACE_ID).s() : null,
        item.containsKey(EXECUTION_ID) ? item.get(EXECUTION_ID).s() : "",
        item.containsKey(FAILURE_STREAK) ? Integer.parseInt(item.get(FAILURE_STREAK).n()) : 0,
        item.containsKey(RETRY_AFTER)
            ? Instant.ofEpochSecond(Long.parseLong(item.get(RETRY_AFTER).n()))
            : null);
  }

  static AttributeValue runItem(StepRecord run) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("capability", s(run.capability()));
    m.put("status", s(run.status()));
    if (run.startedAt() != null) {
      m.put("startedAt", n(run.startedAt().toEpochMilli()));
    }
    if (run.finishedAt() != null) {
      m.put("finishedAt", n(run.finishedAt().toEpochMilli()));
    }
    m.put("outputBytes", n(run.outputBytes()));
    m.put("reused", AttributeValue.fromBool(run.reused()));
    m.put("attempts", n(run.attempts()));
    if (run.summary() != null) {
      m.put(SUMMARY, s(json(run.summary())));
    }
    return AttributeValue.fromM(m);
  }

  static AttributeValue errorItem(JobError error) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("type", s(error.type()));
    m.put("detail", s(error.detail() == null ? "" : error.detail()));
    m.put("step", n(error.step()));
    m.put(RETRYABLE, AttributeValue.fromBool(error.retryable()));
    return AttributeValue.fromM(m);
  }

  static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  static AttributeValue n(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }

  private static StepRecord run(Map<String, AttributeValue> m) {
    return new StepRecord(
        str(m, "capability"),
        str(m, "status"),
        m.containsKey("startedAt")
            ? Instant.ofEpochMilli(Long.parseLong(m.get("startedAt").n()))
            : null,
        m.containsKey("finishedAt")
            ? Instant.ofEpochMilli(Long.parseLong(m.get("finishedAt").n()))
            : null,
        m.containsKey("outputBytes") ? Long.parseLong(m.get("outputBytes").n()) : 0,
        m.containsKey("reused") && Boolean.TRUE.equals(m.get("reused").bool()),
        m.containsKey("attempts") ? Integer.parseInt(m.get("attempts").n()) : 0,
        m.containsKey(SUMMARY) ? summary(m.get(SUMMARY).s()) : null);
  }

  private static JobError error(Map<String, AttributeValue> m) {
    return new JobError(
        str(m, "type"),
        str(m, "detail"),
        Integer.parseInt(m.get("step").n()),
        Boolean.TRUE.equals(m.get(RETRYABLE).bool()));
  }

  private static AttributeValue sourceItem(SourceIdentity source) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("bucket", s(source.bucket()));
    m.put("key", s(source.key()));
    if (source.versionId() != null) {
      m.put("versionId", s(source.versionId()));
    }
    m.put("etag", s(source.etag()));
    m.put("sizeBytes", n(source.sizeBytes()));
    m.put("mediaType", s(source.mediaType()));
    if (source.sha256() != null) {
      m.put("sha256", s(source.sha256()));
    }
    return AttributeValue.fromM(m);
  }

  private static AttributeValue refItem(ObjectRef ref) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("bucket", s(ref.bucket()));
    m.put("key", s(ref.key()));
    if (ref.versionId() != null) {
      m.put("versionId", s(ref.versionId()));
    }
    return AttributeValue.fromM(m);
  }

  private static ObjectRef ref(Map<String, AttributeValue> m) {
    return new ObjectRef(str(m, "bucket"), str(m, "key"), str(m, "versionId"));
  }

  private static String str(Map<String, AttributeValue> m, String name) {
    AttributeValue value = m.get(name);
    return value == null ? null : value.s();
  }

  private static String planJson(Plan plan) {
    try {
      return JSON.writeValueAsString(plan);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a plan is always serialisable", e);
    }
  }

  private static String json(Map<String, Object> summary) {
    try {
      return JSON.writeValueAsString(summary);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a summary read from JSON is always serialisable", e);
    }
  }

  /** A stored summary; one that no longer reads is left out (it is information, not state). */
  private static Map<String, Object> summary(String json) {
    try {
      return JSON.readValue(json, new TypeReference<Map<String, Object>>() {});
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static Plan plan(String json) {
    try {
      return JSON.readValue(json, Plan.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("job record holds an unreadable plan: " + e.getMessage(), e);
    }
  }
}
