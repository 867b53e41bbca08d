package dev.derive.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.infra.endpoint.AwsEndpoint;
import dev.derive.infra.local.LocalCloud;
import dev.derive.infra.local.LocalCloudOptions;
import dev.derive.infra.local.cli.UploadCommand;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rows measured through the local cloud ({@code infra/local-cloud} running {@code
 * template.yaml} on the same AWS endpoint), over HTTP as a client sees it: {@code e2e_1step},
 * {@code e2e_3step}, {@code e2e_video}, {@code office_thumbnail}, {@code dedup_storm}, {@code
 * burst_300}, {@code cold_start_<function>}, {@code first_invoke_<function>} and {@code
 * rss_<function>}. Function output goes to {@code bench/target/run/cloud.log}; durations, init
 * durations and peak memory come from the Lambda-style {@code REPORT} lines the local cloud writes
 * (its {@code Max Memory Used} is the process's VmHWM).
 */
// Over 300 lines because each row is one short method over the same running local cloud.
public final class CloudRows {
  private final Path root;
  private final AwsEndpoint endpoint;
  private final Scale scale;
  private final Results results;
  private final Map<String, String> properties;
  private final Path work;

  /** The per-function rows, which read every REPORT line of the run once the cloud is up. */
  private volatile FunctionRows functions;

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
  public void run(Path photo12, Path photo24, Path pdf, Path markdown, Path docx) throws Exception {
    List<String> missing = missingZips();
    if (!missing.isEmpty()) {
      String why =
          missing + " missing: run ./derive build (./derive bench builds unless --no-build)";
      for (String id :
          List.of(
              "e2e_1step",
              "e2e_3step",
              "e2e_video",
              "office_thumbnail",
              "dedup_storm",
              "burst_300")) {
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
        BenchApi api = new BenchApi(cloud.apiUri());
        LoadRows load = new LoadRows(api, scale, results);
        functions = new FunctionRows(api, scale, results, work);
        UploadCommand upload = new UploadCommand(cloud.apiUri());
        String key12 = upload.upload(photo12);
        if (scale.includes("e2e") || scale.includes("e2e_1step")) {
          oneStep(api, key12);
        }
        if (scale.includes("e2e") || scale.includes("e2e_3step")) {
          threeStep(api, upload);
        }
        if (scale.includes("e2e")) {
          videoToWebp(api, upload);
          officeThumbnail(api, upload);
        }
        if (scale.includes("storm")) {
          load.dedupStorm(cloud, key12);
        }
        if (scale.includes("rss")) {
          heaviest(api, upload, photo24, pdf, markdown);
        }
        if (scale.includes("burst")) {
          load.burst(cloud, key12, aloneStepMillis);
        }
        if (scale.includes("cold")) {
          functions.coldStarts(cloud, upload, pdf, markdown, docx);
        }
        if (scale.includes("rss")) {
          functions.peakMemory();
        }
      }
    }
  }

  private void record(BufferedWriter log, String line) {
    FunctionRows observer = functions;
    if (observer != null) {
      observer.observe(line);
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

  /**
   * A miss with {@code wait}: one image step from the 12 MP photo, a new bounding box each time
   * (256 wide, taller by one pixel per job: the same thumbnail of a landscape photo, another
   * derivative; no width {@code burst_300}'s thumbnails have).
   */
  private void oneStep(BenchApi api, String key) throws Exception {
    EndToEnd measured =
        endToEnd(
            api,
            i -> {
              ObjectNode target = WorkerRows.thumbnailTarget().put("height", 256 + i);
              return api.postWaiting(key, target);
            });
    aloneStepMillis = Stats.of(measured.computes()).median();
    results.add(
        measured.row(
            "e2e_1step",
            "the worker's reported step time (same jobs)",
            "POST with wait → 200, 12 MP JPEG → 256 px"));
  }

  /** Markdown → PDF → PNG → JPEG, a new Markdown source each time (no cached prefix). */
  private void threeStep(BenchApi api, UploadCommand upload) throws Exception {
    Inputs inputs = new Inputs(work.resolve("inputs"));
    EndToEnd measured =
        endToEnd(
            api,
            i -> {
              String key = upload.upload(inputs.markdown("e2e-" + i + ".md", 1, 1000 + i));
              JsonNode job = api.postWaiting(key, WorkerRows.thumbnailTarget());
              if (job.path("steps").size() != 3) {
                throw new IllegalStateException("expected 3 steps: " + job);
              }
              return job;
            });
    results.add(
        measured.row(
            "e2e_3step",
            "sum of the 3 workers' reported step times",
            "POST with wait → 200, Markdown → PDF → PNG → JPEG 256 px"));
  }

  /**
   * A 1080p MP4 to a 320 px WebP: a poster step (the representative frame) chained into an image
   * step. Each request sends another source (the same movie with a mark of its own), so neither
   * step is answered from the cache.
   */
  private void videoToWebp(BenchApi api, UploadCommand upload) throws Exception {
    Inputs inputs = new Inputs(work.resolve("inputs"));
    Path movie = inputs.video("e2e-1080p.mp4", 10);
    EndToEnd measured =
        endToEnd(
            api,
            i -> {
              Path marked = inputs.marked(movie, "e2e-" + i);
              String key = upload.upload(marked);
              Files.delete(marked);
              ObjectNode target =
                  BenchApi.JSON.createObjectNode().put("mediaType", "image/webp").put("width", 320);
              JsonNode job = api.postWaiting(key, target);
              if (job.path("steps").size() != 2) {
                throw new IllegalStateException("expected a poster and an image step: " + job);
              }
              return job;
            });
    results.add(
        measured.row(
            "e2e_video",
            "sum of the 2 workers' reported step times",
            "POST with wait → 200, 10 s 1080p H.264 MP4 → poster → 320 px WebP"));
  }

  /**
   * DOCX → PDF → PNG → JPEG 256 px, a new document like {@code office_pdf}'s each time (its pages,
   * pictures and text, another seed): the office step converts page 1 only, the page the pdf step
   * renders. Fewer jobs than the other end-to-end rows: each is a LibreOffice conversion.
   */
  private void officeThumbnail(BenchApi api, UploadCommand upload) throws Exception {
    Inputs inputs = new Inputs(work.resolve("inputs"));
    int pages = Inputs.documentPages(scale);
    EndToEnd measured =
        endToEnd(
            api,
            scale.workerWarmups(),
            scale.e2eRuns(),
            i -> {
              String key = upload.upload(inputs.docx("office-" + i + ".docx", pages, 2000 + i));
              JsonNode job = api.postWaiting(key, WorkerRows.thumbnailTarget());
              if (job.path("steps").size() != 3) {
                throw new IllegalStateException("expected office, pdf, image: " + job);
              }
              return job;
            });
    results.add(
        measured.row(
            "office_thumbnail",
            "sum of the 3 workers' reported step times",
            "POST with wait → 200, "
                + pages
                + "-page DOCX with pictures → PDF of page 1 → PNG → JPEG 256 px"));
  }

  /** One waited-for request of an end-to-end row (the {@code i}th); returns the ended job. */
  @FunctionalInterface
  private interface WaitedRequest {
    JsonNode send(int i) throws Exception;
  }

  /** The client's wall times, the steps' summed compute and where the rest went, per job. */
  private record EndToEnd(List<Double> walls, List<Double> computes, JobPhases phases) {
    Row row(String id, String anchor, String what) {
      Stats wall = Stats.of(walls);
      return new Row(
          id,
          wall.median(),
          "ms",
          anchor,
          Stats.of(computes).median(),
          1.5,
          what
              + ", median of "
              + wall.count()
              + " (p90 "
              + CoordinatorRows.round(wall.p90())
              + " ms); "
              + phases);
    }
  }

  /** Sends the row's requests one after another; the first {@link Scale#e2eWarmups} only warm. */
  private EndToEnd endToEnd(BenchApi api, WaitedRequest request) throws Exception {
    return endToEnd(api, scale.e2eWarmups(), scale.e2eRuns(), request);
  }

  /** Sends {@code warm} untimed requests, then {@code runs} timed ones, one after another. */
  private EndToEnd endToEnd(BenchApi api, int warm, int runs, WaitedRequest request)
      throws Exception {
    EndToEnd measured = new EndToEnd(new ArrayList<>(), new ArrayList<>(), new JobPhases());
    for (int i = 0; i < runs + warm; i++) {
      long startEpoch = System.currentTimeMillis();
      long start = System.nanoTime();
      JsonNode answered = request.send(i);
      double wall = Timer.since(start);
      long answeredEpoch = System.currentTimeMillis();
      if (i >= warm) {
        // the steps' own times, once recorded (the answer may have come before the last one's)
        JsonNode job = api.recorded(answered.path("id").asText());
        measured.walls().add(wall);
        measured.computes().add(JobPhases.stepMillis(job));
        measured.phases().add(job, startEpoch, answeredEpoch);
      }
    }
    return measured;
  }

  /** The heaviest inputs once each, so the peak-memory rows see them. */
  private static void heaviest(
      BenchApi api, UploadCommand upload, Path photo24, Path pdf, Path markdown) throws Exception {
    String key24 = upload.upload(photo24);
    api.postWaiting(key24, WorkerRows.thumbnailTarget());
    String pdfKey = upload.upload(pdf);
    api.postWaiting(
        pdfKey, BenchApi.JSON.createObjectNode().put("mediaType", "image/png").put("dpi", 150));
    api.postWaiting(pdfKey, BenchApi.JSON.createObjectNode().put("mediaType", "text/plain"));
    String mdKey = upload.upload(markdown);
    api.postWaiting(mdKey, BenchApi.JSON.createObjectNode().put("mediaType", "application/pdf"));
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
}
