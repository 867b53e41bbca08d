package dev.derive.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bench's client of Derive's HTTP API on the local cloud: posts requests, follows jobs to their
 * end, and fires many requests at once. Every call has a 60 s timeout.
 */
final class BenchApi {
  static final ObjectMapper JSON = new ObjectMapper();

  private final URI api;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20)).build();

  /** A client of the API at {@code api} (the local cloud's {@code apiUri()}). */
  BenchApi(URI api) {
    this.api = api;
  }

  /** The body of {@code POST /v1/derivatives} for source {@code key}; no {@code wait} if 0. */
  static ObjectNode request(String key, ObjectNode target, int waitSeconds) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("source").put("key", key);
    body.set("target", target);
    if (waitSeconds > 0) {
      body.put("wait", waitSeconds);
    }
    return body;
  }

  /**
   * POSTs with {@code wait} 20 s and, should it answer 202, follows the job to its end.
   *
   * @return the job, SUCCEEDED
   * @throws IllegalStateException if the POST is refused or the job does not succeed
   */
  JsonNode postWaiting(String key, ObjectNode target) throws Exception {
    HttpResponse<String> response = post(JSON.writeValueAsString(request(key, target, 20)));
    JsonNode body = JSON.readTree(response.body());
    if (response.statusCode() == 202) {
      body = awaitEnd(body.path("id").asText(), Duration.ofSeconds(120));
    } else if (response.statusCode() != 200) {
      throw new IllegalStateException("POST answered " + response.statusCode() + ": " + body);
    }
    if (!"SUCCEEDED".equals(body.path("status").asText())) {
      throw new IllegalStateException("job did not succeed: " + body);
    }
    return body;
  }

  /**
   * Job {@code id} once every step's result is recorded (each has {@code durationMillis}): a
   * waiting POST may answer from the derivative itself before the last step's result reaches the
   * record (docs/round-trips.md). Reads every 10 ms, for at most 10 s.
   *
   * @throws IllegalStateException if a read is refused or a step is still untimed after 10 s
   */
  JsonNode recorded(String id) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      HttpResponse<String> response = get("/v1/derivatives/" + id);
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            "GET job " + id + " answered " + response.statusCode() + ": " + response.body());
      }
      JsonNode job = JSON.readTree(response.body());
      boolean timed = !job.path("steps").isEmpty();
      for (JsonNode step : job.path("steps")) {
        timed &= step.hasNonNull("durationMillis");
      }
      if (timed) {
        return job;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("job " + id + " has untimed steps after 10 s: " + job);
      }
      Thread.sleep(10);
    }
  }

  /**
   * Reads job {@code id} every 250 ms until it SUCCEEDED or FAILED. A read answered 503 or 429 (an
   * API busy with a burst: the local cloud's integration timeout, or throttling) is tried again, as
   * a client would.
   *
   * @throws IllegalStateException if a read is refused otherwise or the job has not ended by {@code
   *     timeout}
   */
  JsonNode awaitEnd(String id, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      HttpResponse<String> response = get("/v1/derivatives/" + id);
      boolean busy = response.statusCode() == 503 || response.statusCode() == 429;
      if (busy && System.nanoTime() < deadline) {
        Thread.sleep(250);
        continue;
      }
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            "GET job " + id + " answered " + response.statusCode() + ": " + response.body());
      }
      JsonNode job = JSON.readTree(response.body());
      String status = job.path("status").asText();
      if (status.equals("SUCCEEDED") || status.equals("FAILED")) {
        return job;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("job " + id + " still " + status + " after " + timeout);
      }
      Thread.sleep(250);
    }
  }

  /** {@code POST /v1/derivatives} with a JSON {@code body}. */
  HttpResponse<String> post(String body) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(api.resolve("/v1/derivatives"))
            .timeout(Duration.ofSeconds(60))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * {@code POST /v1/derivatives} with {@code body}, tried again while it is answered 503 or 429 (a
   * burst beyond the API's instances: the local cloud's integration timeout, or throttling) after
   * its {@code Retry-After} (1 s without one), as a client would, until {@code patience} has
   * passed; {@code retries} counts the tries again.
   */
  HttpResponse<String> postRetrying(String body, Duration patience, AtomicInteger retries)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    while (true) {
      HttpResponse<String> response = post(body);
      boolean busy = response.statusCode() == 503 || response.statusCode() == 429;
      if (!busy || System.nanoTime() > deadline) {
        return response;
      }
      retries.incrementAndGet();
      long seconds = response.headers().firstValue("retry-after").map(Long::parseLong).orElse(1L);
      Thread.sleep(Math.max(1, Math.min(seconds, 10)) * 1000L);
    }
  }

  /** {@code GET path}. */
  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(api.resolve(path)).timeout(Duration.ofSeconds(60)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** One request of a burst. */
  @FunctionalInterface
  interface Call {
    HttpResponse<String> call(int index) throws Exception;
  }

  /** How long a burst took until its last answer (milliseconds) and how many were not 2xx. */
  record Burst(double millis, int failures) {}

  /** Runs {@code n} calls at once (a virtual thread each); the time until the last answered. */
  static Burst concurrently(int n, Call call) {
    AtomicInteger failures = new AtomicInteger();
    List<CompletableFuture<Void>> calls = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      int index = i;
      calls.add(
          CompletableFuture.runAsync(
              () -> {
                try {
                  int status = call.call(index).statusCode();
                  if (status / 100 != 2) {
                    failures.incrementAndGet();
                  }
                } catch (Exception e) {
                  failures.incrementAndGet();
                }
              },
              Thread.ofVirtual()::start));
    }
    CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
    return new Burst(Timer.since(start), failures.get());
  }
}
