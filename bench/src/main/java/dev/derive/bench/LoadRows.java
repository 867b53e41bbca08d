package dev.derive.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.local.LocalCloud;
import dev.derive.infra.local.resources.ProvisionedResource;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The rows of many requests at once through the local cloud: {@code dedup_storm} (identical
 * requests, one execution) and {@code burst_300} (distinct thumbnails, until all SUCCEEDED and
 * every queue is empty).
 */
final class LoadRows {
  private final BenchApi api;
  private final Scale scale;
  private final Results results;

  LoadRows(BenchApi api, Scale scale, Results results) {
    this.api = api;
    this.scale = scale;
    this.results = results;
  }

  /** Identical concurrent requests: one execution, everyone answered with the same job. */
  void dedupStorm(LocalCloud cloud, String key) throws Exception {
    int n = scale.stormSize();
    String capabilities = "/v1/capabilities";
    double anchor = BenchApi.concurrently(n, i -> api.get(capabilities)).millis();
    long deliveredBefore = cloud.deliveredMessages("ImageWorkerFunction");
    String body =
        BenchApi.JSON.writeValueAsString(
            BenchApi.request(
                key, WorkerRows.thumbnailTarget().put("width", 77).put("height", 77), 0));
    Set<String> ids = Collections.synchronizedSet(new HashSet<>());
    BenchApi.Burst storm =
        BenchApi.concurrently(
            n,
            i -> {
              HttpResponse<String> response = api.post(body);
              String id = BenchApi.JSON.readTree(response.body()).path("id").asText();
              if (response.statusCode() / 100 == 2 && !id.isBlank()) {
                ids.add(id);
              }
              return response;
            });
    for (String id : ids) {
      api.awaitEnd(id, Duration.ofSeconds(120));
    }
    Thread.sleep(1000); // a redelivery would show by now (none is expected)
    long executions = cloud.deliveredMessages("ImageWorkerFunction") - deliveredBefore;
    double perDerivative = (double) executions / Math.max(1, ids.size());
    results.add(
        new Row(
            "dedup_storm",
            perDerivative,
            "executions/derivative",
            "one execution",
            1.0,
            1.0,
            n
                + " identical concurrent POSTs → "
                + ids.size()
                + " job id(s), "
                + executions
                + " step delivery(ies) to the image worker; "
                + storm.failures()
                + " non-2xx answers"));
    results.add(
        new Row(
            "dedup_storm_answered",
            storm.millis(),
            "ms",
            n + " concurrent GET /v1/capabilities (same API, no AWS)",
            anchor,
            null,
            "time until all " + n + " POSTs were answered (200/202)"));
  }

  /**
   * Distinct thumbnails at once: time until all SUCCEEDED, and nothing left in any queue.
   *
   * @param aloneStepMillis the step time of one thumbnail alone ({@code e2e_1step}'s), or NaN
   */
  void burst(LocalCloud cloud, String key, double aloneStepMillis) throws Exception {
    int n = scale.burstSize();
    long startMillis = System.currentTimeMillis();
    List<String> ids = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger retried = new AtomicInteger();
    BenchApi.Burst sent =
        BenchApi.concurrently(
            n,
            i -> {
              ObjectNode target =
                  WorkerRows.thumbnailTarget().put("width", 300 + i).put("height", 300 + i);
              HttpResponse<String> response =
                  api.postRetrying(
                      BenchApi.JSON.writeValueAsString(BenchApi.request(key, target, 0)),
                      Duration.ofSeconds(300),
                      retried);
              String id = BenchApi.JSON.readTree(response.body()).path("id").asText();
              if (response.statusCode() / 100 == 2 && !id.isBlank()) {
                ids.add(id);
              }
              return response;
            });
    long lastFinished = startMillis;
    int failed = 0;
    // Why the accepted jobs that did not succeed failed: an error type, or why reading failed.
    Map<String, Integer> failures = new TreeMap<>();
    List<Double> computes = new ArrayList<>();
    for (String id : ids) {
      JsonNode job;
      try {
        job = api.awaitEnd(id, Duration.ofSeconds(600));
      } catch (IllegalStateException e) {
        failed++;
        String message = String.valueOf(e.getMessage()).replaceAll("[0-9a-f]{64}", "…");
        failures.merge(message.substring(0, Math.min(80, message.length())), 1, Integer::sum);
        continue;
      }
      if (!"SUCCEEDED".equals(job.path("status").asText())) {
        failed++;
        failures.merge(job.path("error").path("type").asText("no error type"), 1, Integer::sum);
        continue;
      }
      for (JsonNode step : job.path("steps")) {
        if (step.hasNonNull("finishedAt")) {
          lastFinished =
              Math.max(
                  lastFinished, Instant.parse(step.path("finishedAt").asText()).toEpochMilli());
        }
        computes.add(step.path("durationMillis").asDouble());
      }
    }
    double millis = lastFinished - startMillis;
    // The physical floor: each step as long as it takes alone (contention is what is measured).
    double stepMedian =
        Double.isNaN(aloneStepMillis) ? Stats.of(computes).median() : aloneStepMillis;
    int cores = Runtime.getRuntime().availableProcessors();
    int made = ids.size() - failed; // the jobs accepted and SUCCEEDED; a 503 makes none
    double ideal = made * stepMedian / cores;
    results.add(
        new Row(
            "burst_300",
            millis,
            "ms",
            "jobs made × step time alone (e2e_1step's) ÷ " + cores + " cores",
            ideal,
            null,
            n
                + " distinct 12 MP → thumbnail POSTs at once until the last step finished; "
                + ids.size()
                + " accepted, "
                + failed
                + " failed"
                + (failures.isEmpty() ? "" : " " + failures)
                + ", "
                + sent.failures()
                + " non-2xx answers after "
                + retried.get()
                + " POSTs tried again (503/429, after Retry-After)"));
    results.add(
        new Row(
            "burst_300_rate",
            made / (millis / 1000),
            "executions/s",
            cores + " cores ÷ step time alone (e2e_1step's)",
            cores / (stepMedian / 1000),
            null,
            "derivatives made per second during the burst"));
    long drainStart = System.nanoTime();
    long left;
    List<String> nonEmpty = new ArrayList<>();
    do {
      Thread.sleep(1000);
      nonEmpty.clear();
      left = messagesLeft(cloud, nonEmpty);
    } while (left > 0 && Timer.since(drainStart) < 30_000);
    results.add(
        new Row(
            "burst_300_left",
            (double) left,
            "messages",
            "none left",
            0.0,
            null,
            String.format(
                    Locale.ROOT,
                    "messages in every queue and DLQ once drained (%.0f s after the last step"
                        + " finished, at most 30 s)",
                    Timer.since(drainStart) / 1000)
                + (nonEmpty.isEmpty() ? "" : ": " + nonEmpty)));
  }

  /** Messages in every queue of the stack (visible, in flight, delayed); names the non-empty. */
  private static long messagesLeft(LocalCloud cloud, List<String> nonEmpty) {
    long left = 0;
    try (SqsClient sqs = AwsClients.sqs(cloud.endpoint())) {
      for (ProvisionedResource resource : cloud.resources().values()) {
        if (!resource.type().equals("AWS::SQS::Queue")) {
          continue;
        }
        Map<QueueAttributeName, String> attributes =
            sqs.getQueueAttributes(
                    b ->
                        b.queueUrl(resource.reference())
                            .attributeNames(
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED))
                .attributes();
        long count = attributes.values().stream().mapToLong(Long::parseLong).sum();
        if (count > 0) {
          nonEmpty.add(resource.reference() + "=" + count);
        }
        left += count;
      }
    }
    return left;
  }
}
