package dev.derive.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.AwsEndpoint;
import dev.derive.infra.local.LocalCloud;
import dev.derive.infra.local.LocalCloudOptions;
import dev.derive.infra.local.cli.UploadCommand;
import dev.derive.infra.local.resources.ProvisionedResource;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The rows measured through the local cloud ({@code infra/local-cloud} running {@code
 * template.yaml} on the same AWS endpoint), over HTTP as a client sees it: {@code e2e_1step},
 * {@code e2e_3step}, {@code dedup_storm}, {@code burst_300}, {@code cold_start_<function>}, {@code
 * first_invoke_<function>} and {@code rss_<function>}. Function output goes to {@code
 * bench/target/run/cloud.log}; durations, init durations and peak memory come from the Lambda-style
 * {@code REPORT} lines the local cloud writes (its {@code Max Memory Used} is the process's VmHWM).
 */
public final class CloudRows {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern REPORT =
      Pattern.compile(
          "^\\[(\\w+)\\] REPORT RequestId: \\S+\\tDuration: ([0-9.]+) ms.*Memory Size: (\\d+) MB"
              + "\\tMax Memory Used: (\\d+) MB(?:\\tInit Duration: ([0-9.]+) ms)?");

  private final Path root;
  private final AwsEndpoint endpoint;
  private final Scale scale;
  private final Results results;
  private final Map<String, String> properties;
  private final Path work;
  private final List<String> reports = Collections.synchronizedList(new ArrayList<>());
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20)).build();
  private URI api;

  /** The median step time the worker reported for one thumbnail at a time ({@code e2e_1step}). */
  private double aloneStepMillis = Double.NaN;

  /**
   * @param endpoint the AWS endpoint to run on, or {@code null} to let the local cloud start one
   * @param properties template property overrides ({@code LogicalId.Property=Value})
   * @param work the run's folder
   * @param tools unused here (the anchors are the workers' own reports), kept for symmetry
   */
  public CloudRows(
      Path root,
      AwsEndpoint endpoint,
      Scale scale,
      Results results,
      Map<String, String> properties,
      Path work,
      NativeTools tools) {
    this.root = root;
    this.endpoint = endpoint;
    this.scale = scale;
    this.results = results;
    this.properties = properties;
    this.work = work;
  }

  /** Starts the local cloud, measures every row, stops it. */
  public void run(Path photo12, Path photo24, Path pdf, Path markdown) throws Exception {
    List<String> missing = missingZips();
    if (!missing.isEmpty()) {
      String why =
          missing + " missing: run ./derive build (./derive bench builds unless --no-build)";
      for (String id : List.of("e2e_1step", "e2e_3step", "dedup_storm", "burst_300")) {
        results.add(Row.unmeasured(id, "ms", "-", null, why));
      }
      return;
    }
    Path logFile = work.resolve("cloud.log");
    try (BufferedWriter log = Files.newBufferedWriter(logFile)) {
      LocalCloudOptions.Builder options =
          LocalCloudOptions.builder(root.resolve("template.yaml"))
              .workDir(work.resolve("cloud"))
              .httpPort(0)
              .log(line -> record(log, line));
      if (endpoint != null) {
        options.endpoint(endpoint);
      }
      properties.forEach(options::property);
      long start = System.nanoTime();
      System.out.println("bench: starting the local cloud (log: " + logFile + ") ...");
      try (LocalCloud cloud = LocalCloud.start(options.build())) {
        results.note(
            String.format(Locale.ROOT, "local cloud ready in %.1f s", Timer.since(start) / 1000));
        api = cloud.apiUri();
        UploadCommand upload = new UploadCommand(api);
        String key12 = upload.upload(photo12);
        if (scale.includes("e2e")) {
          oneStep(key12);
          threeStep(upload);
        }
        if (scale.includes("storm")) {
          dedupStorm(cloud, key12);
        }
        if (scale.includes("rss")) {
          heaviest(upload, photo24, pdf, markdown);
        }
        if (scale.includes("burst")) {
          burst(cloud, key12);
        }
        if (scale.includes("cold")) {
          coldStarts(cloud, upload, pdf, markdown);
        }
        if (scale.includes("rss")) {
          peakMemory();
        }
      }
    }
  }

  private void record(BufferedWriter log, String line) {
    if (line.contains("REPORT RequestId:")) {
      reports.add(line);
    }
    synchronized (log) {
      try {
        log.write(line);
        log.newLine();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** A miss with {@code wait}: one image step from the 12 MP photo, a new size each time. */
  private void oneStep(String key) throws Exception {
    List<Double> walls = new ArrayList<>();
    List<Double> computes = new ArrayList<>();
    Phases phases = new Phases();
    int warm = scale.smoke() ? 0 : 1;
    int runs = scale.e2eRuns() + warm;
    for (int i = 0; i < runs; i++) {
      ObjectNode target = WorkerRows.thumbnailTarget().put("width", 256 + i).put("height", 256 + i);
      long startEpoch = System.currentTimeMillis();
      long start = System.nanoTime();
      JsonNode job = postWaiting(key, target);
      double wall = Timer.since(start);
      if (i >= warm) { // the first request of a full run warms the path
        walls.add(wall);
        computes.add(stepMillis(job));
        phases.add(job, startEpoch, System.currentTimeMillis());
      }
    }
    Stats wall = Stats.of(walls);
    aloneStepMillis = Stats.of(computes).median();
    results.add(
        new Row(
            "e2e_1step",
            wall.median(),
            "ms",
            "the worker's reported step time (same jobs)",
            Stats.of(computes).median(),
            1.5,
            "POST with wait → 200, 12 MP JPEG → 256 px, median of "
                + wall.count()
                + " (p90 "
                + CoordinatorRows.round(wall.p90())
                + " ms); "
                + phases));
  }

  /** Markdown → PDF → PNG → JPEG, a new Markdown source each time (no cached prefix). */
  private void threeStep(UploadCommand upload) throws Exception {
    List<Double> walls = new ArrayList<>();
    List<Double> computes = new ArrayList<>();
    Inputs inputs = new Inputs(work.resolve("inputs"));
    int warm = scale.smoke() ? 0 : 1;
    int runs = scale.e2eRuns() + warm;
    Phases phases = new Phases();
    for (int i = 0; i < runs; i++) {
      String key = upload.upload(inputs.markdown("e2e-" + i + ".md", 1, 1000 + i));
      long startEpoch = System.currentTimeMillis();
      long start = System.nanoTime();
      JsonNode job = postWaiting(key, WorkerRows.thumbnailTarget());
      double wall = Timer.since(start);
      if (job.path("steps").size() != 3) {
        throw new IllegalStateException("expected 3 steps: " + job);
      }
      if (i >= warm) {
        walls.add(wall);
        computes.add(stepMillis(job));
        phases.add(job, startEpoch, System.currentTimeMillis());
      }
    }
    Stats wall = Stats.of(walls);
    results.add(
        new Row(
            "e2e_3step",
            wall.median(),
            "ms",
            "sum of the 3 workers' reported step times",
            Stats.of(computes).median(),
            1.5,
            "POST with wait → 200, Markdown → PDF → PNG → JPEG 256 px, median of "
                + wall.count()
                + " (p90 "
                + CoordinatorRows.round(wall.p90())
                + " ms); "
                + phases));
  }

  /** Identical concurrent requests: one execution, everyone answered with the same job. */
  private void dedupStorm(LocalCloud cloud, String key) throws Exception {
    int n = scale.stormSize();
    String capabilities = "/v1/capabilities";
    double anchor = concurrently(n, i -> get(capabilities)).millis;
    long deliveredBefore = cloud.deliveredMessages("ImageWorkerFunction");
    String body =
        JSON.writeValueAsString(
            request(key, WorkerRows.thumbnailTarget().put("width", 77).put("height", 77), 0));
    Set<String> ids = Collections.synchronizedSet(new HashSet<>());
    Burst storm =
        concurrently(
            n,
            i -> {
              HttpResponse<String> response = post(body);
              String id = JSON.readTree(response.body()).path("id").asText();
              if (response.statusCode() / 100 == 2 && !id.isBlank()) {
                ids.add(id);
              }
              return response;
            });
    for (String id : ids) {
      awaitEnd(id, Duration.ofSeconds(120));
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
                + storm.failures
                + " non-2xx answers"));
    results.add(
        new Row(
            "dedup_storm_answered",
            storm.millis,
            "ms",
            n + " concurrent GET /v1/capabilities (same API, no AWS)",
            anchor,
            null,
            "time until all " + n + " POSTs were answered (200/202)"));
  }

  /** The heaviest inputs once each, so the peak-memory rows see them. */
  private void heaviest(UploadCommand upload, Path photo24, Path pdf, Path markdown)
      throws Exception {
    String key24 = upload.upload(photo24);
    postWaiting(key24, WorkerRows.thumbnailTarget());
    String pdfKey = upload.upload(pdf);
    postWaiting(pdfKey, JSON.createObjectNode().put("mediaType", "image/png").put("dpi", 150));
    postWaiting(pdfKey, JSON.createObjectNode().put("mediaType", "text/plain"));
    String mdKey = upload.upload(markdown);
    postWaiting(mdKey, JSON.createObjectNode().put("mediaType", "application/pdf"));
  }

  /** Distinct thumbnails at once: time until all SUCCEEDED, and nothing left in any queue. */
  private void burst(LocalCloud cloud, String key) throws Exception {
    int n = scale.burstSize();
    long startMillis = System.currentTimeMillis();
    List<String> ids = Collections.synchronizedList(new ArrayList<>());
    Burst sent =
        concurrently(
            n,
            i -> {
              ObjectNode target =
                  WorkerRows.thumbnailTarget().put("width", 300 + i).put("height", 300 + i);
              HttpResponse<String> response =
                  post(JSON.writeValueAsString(request(key, target, 0)));
              String id = JSON.readTree(response.body()).path("id").asText();
              if (response.statusCode() / 100 == 2 && !id.isBlank()) {
                ids.add(id);
              }
              return response;
            });
    long lastFinished = startMillis;
    int failed = 0;
    List<Double> computes = new ArrayList<>();
    for (String id : ids) {
      JsonNode job;
      try {
        job = awaitEnd(id, Duration.ofSeconds(600));
      } catch (IllegalStateException e) {
        failed++;
        continue;
      }
      if (!"SUCCEEDED".equals(job.path("status").asText())) {
        failed++;
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
                + " failed, "
                + sent.failures
                + " non-2xx answers"));
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

  /**
   * Each function's cold start alone: every instance is stopped, then requests that need one
   * function after another start them one at a time (API, then markup → pdf → image with the
   * progress function between them, then text); the same requests again on new sources give the
   * warm invocation each first one is compared with.
   */
  private void coldStarts(LocalCloud cloud, UploadCommand upload, Path pdf, Path markdown)
      throws Exception {
    double jvm = jvmStartMillis();
    boolean alone = !scale.smoke();
    Map<String, Long> stopped = alone ? stopFunctionProcesses() : Map.of();
    int reportsBefore = alone ? reports.size() : 0;
    for (int pass = 0; pass < (alone ? 2 : 0); pass++) {
      get("/v1/capabilities");
      Thread.sleep(300);
      String md = upload.upload(markdown);
      postWaiting(md, WorkerRows.thumbnailTarget());
      String pdfKey = upload.upload(pdf);
      postWaiting(pdfKey, JSON.createObjectNode().put("mediaType", "text/plain"));
      Thread.sleep(500);
    }
    List<String> after;
    synchronized (reports) {
      after = new ArrayList<>(reports.subList(reportsBefore, reports.size()));
    }
    Map<String, double[]> cold = new LinkedHashMap<>();
    Map<String, Double> warm = new LinkedHashMap<>();
    for (String line : after) {
      Matcher m = REPORT.matcher(line);
      if (!m.find()) {
        continue;
      }
      String function = m.group(1);
      double duration = Double.parseDouble(m.group(2));
      if (m.group(5) != null && !cold.containsKey(function)) {
        cold.put(function, new double[] {Double.parseDouble(m.group(5)), duration});
      } else if (cold.containsKey(function) && !warm.containsKey(function)) {
        warm.put(function, duration);
      }
    }
    for (Map.Entry<String, double[]> entry : cold.entrySet()) {
      String id = snake(entry.getKey());
      results.add(
          new Row(
              "cold_start_" + id,
              entry.getValue()[0],
              "ms",
              "a bare JVM start (java -version)",
              jvm,
              null,
              alone
                  ? "Init Duration of a lone instance through the runtime interface client"
                  : "smoke: Init Duration of the start-up instance (six started at once)"));
      results.add(
          new Row(
              "first_invoke_" + id,
              entry.getValue()[1],
              "ms",
              "the same request warm (next invocation)",
              warm.get(entry.getKey()),
              null,
              null));
    }
    if (alone) {
      results.note("cold starts: stopped " + stopped.size() + " function processes first");
    }
  }

  /** {@code rss_<function>}: the highest {@code Max Memory Used} (VmHWM) in the run's reports. */
  private void peakMemory() {
    Map<String, int[]> peak = new LinkedHashMap<>();
    synchronized (reports) {
      for (String line : reports) {
        Matcher m = REPORT.matcher(line);
        if (m.find()) {
          int[] value = peak.computeIfAbsent(m.group(1), k -> new int[2]);
          value[0] = Math.max(value[0], Integer.parseInt(m.group(4)));
          value[1] = Integer.parseInt(m.group(3));
        }
      }
    }
    peak.forEach(
        (function, value) ->
            results.add(
                new Row(
                    "rss_" + snake(function),
                    (double) value[0],
                    "MB",
                    "the function's MemorySize",
                    (double) value[1],
                    null,
                    "peak VmHWM of any instance over the run (heaviest inputs included)")));
  }

  /** Kills every function JVM this process started (found by its task root), idle all of them. */
  private Map<String, Long> stopFunctionProcesses() throws InterruptedException {
    Map<String, Long> stopped = new LinkedHashMap<>();
    Path functions = work.resolve("cloud").resolve("functions").toAbsolutePath();
    List<ProcessHandle> handles = ProcessHandle.current().descendants().toList();
    for (ProcessHandle handle : handles) {
      try {
        Path cwd = Files.readSymbolicLink(Path.of("/proc", Long.toString(handle.pid()), "cwd"));
        if (cwd.startsWith(functions)) {
          String function = functions.relativize(cwd).getName(0).toString();
          handle.destroyForcibly();
          handle.onExit().get(10, TimeUnit.SECONDS);
          stopped.put(function + "#" + handle.pid(), handle.pid());
        }
      } catch (IOException
          | java.util.concurrent.ExecutionException
          | java.util.concurrent.TimeoutException gone) {
        // not ours, or already gone
      }
    }
    return stopped;
  }

  private static double jvmStartMillis() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return Timer.time(
            1,
            3,
            run -> NativeTools.run(List.of(java, "-XX:+UseSerialGC", "-Xshare:auto", "-version")))
        .median();
  }

  private static String snake(String logicalId) {
    String name =
        logicalId.endsWith("Function")
            ? logicalId.substring(0, logicalId.length() - "Function".length())
            : logicalId;
    return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
  }

  private List<String> missingZips() throws IOException {
    List<String> missing = new ArrayList<>();
    for (String line : Files.readAllLines(root.resolve("template.yaml"))) {
      String trimmed = line.trim();
      if (trimmed.startsWith("CodeUri:")) {
        String uri = trimmed.substring("CodeUri:".length()).trim();
        if (!Files.isRegularFile(root.resolve(uri))) {
          missing.add(uri);
        }
      }
    }
    return missing;
  }

  private static ObjectNode request(String key, ObjectNode target, int waitSeconds) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("source").put("key", key);
    body.set("target", target);
    if (waitSeconds > 0) {
      body.put("wait", waitSeconds);
    }
    return body;
  }

  /** POSTs with {@code wait} 20 s and, should it answer 202, follows the job to its end. */
  private JsonNode postWaiting(String key, ObjectNode target) throws Exception {
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

  private JsonNode awaitEnd(String id, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      HttpResponse<String> response = get("/v1/derivatives/" + id);
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

  /**
   * Where a waited-for job's time outside its steps goes, from the client's clock and the steps'
   * {@code startedAt}/{@code finishedAt} (the workers' clocks: the same machine), in milliseconds:
   * before the first step starts (POST → coordinator → dispatch → queue → worker), between steps
   * (result → progress → next dispatch → queue → worker), after the last one (result → progress →
   * the waiting POST's next read → answer).
   */
  private static final class Phases {
    private final List<Double> before = new ArrayList<>();
    private final List<Double> between = new ArrayList<>();
    private final List<Double> after = new ArrayList<>();

    void add(JsonNode job, long postedEpochMillis, long answeredEpochMillis) {
      JsonNode steps = job.path("steps");
      if (steps.isEmpty() || !steps.get(0).hasNonNull("startedAt")) {
        return;
      }
      before.add((double) (epochMillis(steps.get(0), "startedAt") - postedEpochMillis));
      double gaps = 0;
      for (int i = 1; i < steps.size(); i++) {
        gaps +=
            epochMillis(steps.get(i), "startedAt") - epochMillis(steps.get(i - 1), "finishedAt");
      }
      between.add(gaps);
      after.add(
          (double) (answeredEpochMillis - epochMillis(steps.get(steps.size() - 1), "finishedAt")));
    }

    private static long epochMillis(JsonNode step, String field) {
      return Instant.parse(step.path(field).asText()).toEpochMilli();
    }

    @Override
    public String toString() {
      if (before.isEmpty()) {
        return "no step times to split the overhead";
      }
      return String.format(
          Locale.ROOT,
          "outside the steps (medians): %.0f ms before the first, %.0f ms between steps, %.0f ms"
              + " after the last until answered",
          Stats.of(before).median(),
          Stats.of(between).median(),
          Stats.of(after).median());
    }
  }

  private static double stepMillis(JsonNode job) {
    double total = 0;
    for (JsonNode step : job.path("steps")) {
      total += step.path("durationMillis").asDouble();
    }
    return total;
  }

  private HttpResponse<String> post(String body) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(api.resolve("/v1/derivatives"))
            .timeout(Duration.ofSeconds(60))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(api.resolve(path)).timeout(Duration.ofSeconds(60)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** One request of a burst. */
  @FunctionalInterface
  private interface Call {
    HttpResponse<String> call(int index) throws Exception;
  }

  private record Burst(double millis, int failures) {}

  /** Runs {@code n} calls at once (a virtual thread each); the time until the last answered. */
  private static Burst concurrently(int n, Call call) throws Exception {
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
