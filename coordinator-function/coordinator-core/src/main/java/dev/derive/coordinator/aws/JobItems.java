package dev.derive.coordinator.aws;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.job.StepStatus;
import dev.derive.coordinator.plan.DerivativeFingerprint;
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
 * source} and {@code output} (maps), {@code steps} (a list of per-step maps with epoch-millisecond
 * timings), {@code error}, {@code createdAt}/{@code updatedAt} (epoch ms), {@code leaseExpiresAt}
 * (epoch s), {@code expiresAt} (epoch s, the table's TTL attribute), {@code traceId}, {@code
 * executionId}, {@code failureStreak} (N) and {@code retryAfter} (epoch s); {@code completion} and
 * {@code callbacks} belong to the {@link DynamoDbCompletionOutbox}.
 *
 * <p>Written in one of two {@link JobRecordShape}s, read in either: a {@link
 * JobRecordShape#COMPACT} item leaves out what the rest of it says ({@code output}, the plan's
 * fingerprint, the last output's key, repeated buckets, each step's capability), and the reader
 * puts it back. Neither shape writes {@code stepCount} (no release reads it) nor a step's default
 * values ({@code reused} false, zero {@code attempts} or {@code outputBytes}: every release reads
 * their absence as those).
 */
// Over 300 lines because it maps both record shapes both ways, write by read.
final class JobItems {
  static final String JOB_ID = "jobId";
  static final String STATUS = "status";
  static final String PLAN = "plan";
  static final String CURRENT_STEP = "currentStep";

  /** The plan's length: written until 2026-12-06, never read; a take-over removes it. */
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

  /** The item of {@code job} in {@code shape}. */
  static Map<String, AttributeValue> toItem(Job job, JobRecordShape shape) {
    boolean compact = shape == JobRecordShape.COMPACT;
    Map<String, AttributeValue> item = new HashMap<>();
    item.put(JOB_ID, s(job.jobId()));
    item.put(STATUS, s(job.status().name()));
    item.put(PLAN, s(planJson(job.plan(), job.jobId(), compact)));
    item.put(CURRENT_STEP, n(job.currentStep()));
    item.put(SOURCE, sourceItem(job.source()));
    if (!compact || !job.output().equals(job.plan().step(job.plan().size() - 1).output())) {
      item.put(OUTPUT, refItem(job.output()));
    }
    List<AttributeValue> runs = new ArrayList<>();
    job.steps().forEach(r -> runs.add(runItem(r, shape)));
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

  /** The job of an item in either {@link JobRecordShape}. */
  static Job fromItem(Map<String, AttributeValue> item) {
    Map<String, AttributeValue> source = item.get(SOURCE).m();
    String jobId = item.get(JOB_ID).s();
    Plan plan = plan(item.get(PLAN).s(), jobId);
    List<StepRecord> runs = new ArrayList<>();
    for (AttributeValue run : item.get(STEPS).l()) {
      int index = runs.size();
      runs.add(run(run.m(), index < plan.size() ? plan.step(index).capability() : null));
    }
    AttributeValue error = item.get(ERROR);
    AttributeValue output = item.get(OUTPUT);
    return new Job(
        jobId,
        JobStatus.valueOf(item.get(STATUS).s()),
        plan,
        Integer.parseInt(item.get(CURRENT_STEP).n()),
        new SourceIdentity(
            str(source, "bucket"),
            str(source, "key"),
            str(source, "versionId"),
            str(source, "etag"),
            Long.parseLong(source.get("sizeBytes").n()),
            str(source, "mediaType"),
            str(source, "sha256")),
        output == null ? plan.step(plan.size() - 1).output() : ref(output.m()),
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

  /**
   * A step's map; in the {@link JobRecordShape#COMPACT} shape without its capability: a step's
   * record always names its plan step's capability (the claim builds the records from the plan, a
   * result's capability is the one its step message carried), so the plan says it.
   */
  static AttributeValue runItem(StepRecord run, JobRecordShape shape) {
    Map<String, AttributeValue> m = new HashMap<>();
    if (shape != JobRecordShape.COMPACT) {
      m.put("capability", s(run.capability()));
    }
    m.put("status", s(run.status().name()));
    if (run.startedAt() != null) {
      m.put("startedAt", n(run.startedAt().toEpochMilli()));
    }
    if (run.finishedAt() != null) {
      m.put("finishedAt", n(run.finishedAt().toEpochMilli()));
    }
    if (run.outputBytes() != 0) {
      m.put("outputBytes", n(run.outputBytes()));
    }
    if (run.reused()) {
      m.put("reused", AttributeValue.fromBool(true));
    }
    if (run.attempts() != 0) {
      m.put("attempts", n(run.attempts()));
    }
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

  /** A step's map, whose capability is {@code planned} when the map has none. */
  private static StepRecord run(Map<String, AttributeValue> m, String planned) {
    String capability = str(m, "capability");
    return new StepRecord(
        capability == null ? planned : capability,
        StepStatus.valueOf(str(m, "status")),
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

  private static final String FINGERPRINT = "fingerprint";
  private static final String BUCKET = "bucket";
  private static final String KEY = "key";

  /**
   * The plan as JSON; when {@code compact}, without its fingerprint when it is {@code jobId}, its
   * last output's key when it is {@code derivatives/<fingerprint>}, and an earlier output's bucket
   * when it is the last output's ({@link #plan} puts each back).
   */
  private static String planJson(Plan plan, String jobId, boolean compact) {
    try {
      if (!compact) {
        return JSON.writeValueAsString(plan);
      }
      ObjectNode tree = JSON.valueToTree(plan);
      if (jobId.equals(tree.path(FINGERPRINT).asText(null))) {
        tree.remove(FINGERPRINT);
      }
      JsonNode steps = tree.path("steps");
      JsonNode last = steps.path(steps.size() - 1).path("output");
      if (last instanceof ObjectNode lastOutput) {
        String bucket = lastOutput.path(BUCKET).asText(null);
        for (int i = 0; i < steps.size() - 1; i++) {
          if (steps.get(i).path("output") instanceof ObjectNode output
              && bucket != null
              && bucket.equals(output.path(BUCKET).asText(null))) {
            output.remove(BUCKET);
          }
        }
        if ((DerivativeFingerprint.KEY_PREFIX + plan.fingerprint())
            .equals(lastOutput.path(KEY).asText(null))) {
          lastOutput.remove(KEY);
        }
      }
      return JSON.writeValueAsString(tree);
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

  /** The plan of {@link #planJson} in either shape, with what a compact one left out put back. */
  private static Plan plan(String json, String jobId) {
    try {
      ObjectNode tree = (ObjectNode) JSON.readTree(json);
      if (!tree.hasNonNull(FINGERPRINT)) {
        tree.put(FINGERPRINT, jobId);
      }
      JsonNode steps = tree.path("steps");
      JsonNode last = steps.path(steps.size() - 1).path("output");
      if (last instanceof ObjectNode lastOutput) {
        if (!lastOutput.hasNonNull(KEY)) {
          lastOutput.put(KEY, DerivativeFingerprint.KEY_PREFIX + tree.get(FINGERPRINT).asText());
        }
        JsonNode bucket = lastOutput.get(BUCKET);
        for (int i = 0; i < steps.size() - 1; i++) {
          if (steps.get(i).path("output") instanceof ObjectNode output
              && !output.hasNonNull(BUCKET)
              && bucket != null) {
            output.set(BUCKET, bucket);
          }
        }
      }
      return JSON.treeToValue(tree, Plan.class);
    } catch (JsonProcessingException | ClassCastException e) {
      throw new IllegalStateException("job record holds an unreadable plan: " + e.getMessage(), e);
    }
  }
}
