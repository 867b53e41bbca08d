package dev.derive.coordinator.completion;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.Operation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What Derive says when a job ends: an EventBridge event of source {@value #SOURCE} and detail type
 * {@value #SUCCEEDED} or {@value #FAILED}, and the {@code detail} of every callback about it. The
 * fields are specified in {@code docs/completion-events.md}.
 *
 * <p>{@code eventId} is stable: {@code <fingerprint>:<executionId>}, the same on every publication
 * of one job end (EventBridge and callbacks are at-least-once; receivers dedupe on it, not on
 * EventBridge's own {@code id}, which differs per publication).
 *
 * @param eventId the job end's stable id, or {@code null} for a request answered from the cache (no
 *     job ended)
 * @param detailType {@value #SUCCEEDED} or {@value #FAILED}
 * @param detail the event's detail, in the order it is written
 */
public record CompletionEvent(String eventId, String detailType, Map<String, Object> detail) {
  /** The EventBridge {@code source} of every completion event. */
  public static final String SOURCE = "dev.derive";

  /** Detail type of a job that ended SUCCEEDED. */
  public static final String SUCCEEDED = "Derivative Succeeded";

  /** Detail type of a job that ended FAILED. */
  public static final String FAILED = "Derivative Failed";

  private static final ObjectMapper JSON = JsonMapper.builder().build();

  public CompletionEvent {
    detail = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(detail));
  }

  /**
   * The event of {@code job}'s end (its status SUCCEEDED or FAILED; {@code endedAt} its last
   * write's time, so every publication carries the same detail).
   *
   * @throws IllegalArgumentException if the job has not ended
   */
  public static CompletionEvent ended(Job job) {
    if (!job.status().isTerminal()) {
      throw new IllegalArgumentException("job " + job.jobId() + " has not ended: " + job.status());
    }
    boolean succeeded = job.status() == JobStatus.SUCCEEDED;
    String eventId = job.jobId() + ":" + job.executionId();
    Map<String, Object> detail = new LinkedHashMap<>();
    detail.put("eventId", eventId);
    detail.put("fingerprint", job.jobId());
    detail.put("executionId", job.executionId());
    detail.put("status", job.status().name());
    detail.put("endedAt", job.updatedAt().toString());
    detail.put("source", source(job.source()));
    List<PlannedStep> steps = job.plan().steps();
    detail.put("mediaType", steps.get(steps.size() - 1).outputMediaType());
    detail.put("steps", steps(steps));
    if (succeeded) {
      detail.put("location", location(job.jobId(), job.output().bucket(), job.output().key()));
      Map<String, Object> summary = job.steps().get(job.steps().size() - 1).summary();
      if (summary != null) {
        detail.put("summary", summary);
      }
    } else {
      detail.put("error", error(job.error()));
    }
    return new CompletionEvent(eventId, succeeded ? SUCCEEDED : FAILED, detail);
  }

  /**
   * What a request answered from the cache is told: the derivative {@code fingerprint} exists. No
   * job ended, so there is no {@code eventId} and no EventBridge event; {@code cached} is true.
   */
  public static CompletionEvent cached(String fingerprint, String derivativesBucket, Instant now) {
    Map<String, Object> detail = new LinkedHashMap<>();
    detail.put("fingerprint", fingerprint);
    detail.put("status", JobStatus.SUCCEEDED.name());
    detail.put("endedAt", now.toString());
    detail.put("cached", true);
    detail.put("location", location(fingerprint, derivativesBucket, "derivatives/" + fingerprint));
    return new CompletionEvent(null, SUCCEEDED, detail);
  }

  /** The detail as the JSON text published. */
  public String detailJson() {
    return json(detail);
  }

  static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an event detail is always serialisable", e);
    }
  }

  private static Map<String, Object> source(SourceIdentity source) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("bucket", source.bucket());
    m.put("key", source.key());
    if (source.versionId() != null) {
      m.put("versionId", source.versionId());
    }
    m.put("etag", source.etag());
    m.put("mediaType", source.mediaType());
    return m;
  }

  private static List<Map<String, Object>> steps(List<PlannedStep> steps) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (PlannedStep step : steps) {
      List<Map<String, Object>> operations = new ArrayList<>();
      for (Operation op : step.operations()) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("operation", op.operation());
        o.put("params", op.params());
        operations.add(o);
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("capability", step.capability());
      m.put("operations", operations);
      m.put("mediaType", step.outputMediaType());
      out.add(m);
    }
    return out;
  }

  private static Map<String, Object> location(String fingerprint, String bucket, String key) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("bucket", bucket);
    m.put("key", key);
    m.put("contentPath", "/v1/derivatives/" + fingerprint + "/content");
    return m;
  }

  private static Map<String, Object> error(JobError error) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", error.type());
    m.put("detail", error.detail());
    m.put("step", error.step() + 1); // as the API's error.step: counted from 1
    m.put("retryable", error.retryable());
    return m;
  }
}
