package dev.derive.bench;

import dev.derive.infra.endpoint.AwsEndpoint;
import dev.derive.infra.endpoint.AwsEndpoints;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ./derive bench [--smoke] [--in-process] [--only GROUP,...] [--output FILE] [--property
 * LogicalId.Property=Value]...}: measures every row in one run, prints one table and writes {@code
 * bench/results/latest.json} ({@code bench/target/smoke.json} for {@code --smoke}).
 *
 * <p>Order: the anchors' tools, the inputs, the in-process rows (coordinator against moto, worker
 * compute beside the native tools), then the local cloud's rows (end to end, dedup storm, burst,
 * cold starts, peak RSS). A part that cannot run leaves its rows unmeasured with the reason.
 */
public final class BenchMain {
  private BenchMain() {}

  /** Runs the bench; exits non-zero only when the harness itself breaks. */
  public static void main(String[] args) throws Exception {
    boolean smoke = false;
    boolean inProcessOnly = false;
    java.util.Set<String> only = new java.util.TreeSet<>();
    Path root = Path.of(System.getProperty("derive.root", ".")).toAbsolutePath().normalize();
    Path output = null;
    Map<String, String> properties = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--smoke" -> smoke = true;
        case "--in-process" -> inProcessOnly = true;
        case "--only" -> only.addAll(java.util.Arrays.asList(args[++i].split(",")));
        case "--output" -> output = Path.of(args[++i]);
        case "--property" -> {
          String[] pair = args[++i].split("=", 2);
          properties.put(pair[0], pair[1]);
        }
        default -> {
          System.err.println(
              "usage: ./derive bench [--smoke] [--in-process] [--only GROUP,...] [--output FILE]"
                  + " [--property LogicalId.Property=Value]...");
          System.exit(2);
        }
      }
    }
    if (!Scale.GROUPS.containsAll(only)) {
      System.err.println("--only takes groups of " + Scale.GROUPS + ", got " + only);
      System.exit(2);
    }
    if (output == null && !only.isEmpty()) {
      output = root.resolve("bench/target/partial.json");
    }
    if (output == null) {
      output =
          smoke
              ? root.resolve("bench/target/smoke.json")
              : root.resolve("bench/results/latest.json");
    }
    System.exit(
        run(
            root,
            (smoke ? Scale.smokeRun() : Scale.fullRun()).only(only),
            inProcessOnly,
            true,
            properties,
            output));
  }

  /**
   * One bench run from the repository at {@code root}.
   *
   * @param inProcessOnly skip the local cloud's rows
   * @param install whether missing native tools may be installed with apt-get
   * @param properties template property overrides for the local cloud
   * @param output where the JSON goes
   * @return 0, or 1 when no row could be measured at all
   */
  public static int run(
      Path root,
      Scale scale,
      boolean inProcessOnly,
      boolean install,
      Map<String, String> properties,
      Path output)
      throws Exception {
    long start = System.nanoTime();
    Results results = new Results();
    double load = Results.loadAverage();
    results.note(
        "shared machine (other engineers build and test on it): load average "
            + load
            + " on "
            + Runtime.getRuntime().availableProcessors()
            + " cores at the start; numbers are noisy, ratios within one run are the figures"
            + " to read");
    if (!properties.isEmpty()) {
      results.note("template property overrides: " + properties);
    }
    Path work = Files.createDirectories(root.resolve("bench/target/run"));
    NativeTools tools = NativeTools.ensure(install);
    Inputs inputs = new Inputs(work.resolve("inputs"));
    System.out.println("bench: generating inputs ...");
    Path photo12 =
        scale.smoke()
            ? inputs.photo("photo-12mp.jpg", 800, 600, 12)
            : inputs.photo("photo-12mp.jpg", 4000, 3000, 12);
    Path photo24 =
        scale.smoke()
            ? inputs.photo("photo-24mp.jpg", 1200, 800, 24)
            : inputs.photo("photo-24mp.jpg", 6000, 4000, 24);
    Path gif =
        scale.smoke()
            ? inputs.animatedGif("animated.gif", 320, 240, 1)
            : inputs.animatedGif("animated.gif", 640, 480, 3);
    Path markdown = inputs.markdown("document.md", scale.smoke() ? 1 : 8, 1);
    Path pdf = inputs.pdfFrom(markdown, "document.pdf");
    Path docx = inputs.docx("document.docx", Inputs.documentPages(scale), 1);
    if (scale.smoke()) {
      results.note("smoke run: tiny inputs and few repetitions; the numbers mean nothing");
    }

    List<String> failures = new ArrayList<>();
    AwsEndpoint endpoint = null;
    try {
      endpoint = AwsEndpoints.startDefault(work);
      System.out.println("bench: AWS endpoint " + endpoint.describe());
      if (scale.includes("coordinator")) {
        new CoordinatorRows(endpoint, scale, results).run(photo12);
      }
    } catch (Exception | LinkageError e) {
      failures.add("coordinator rows: " + e);
      results.add(Row.unmeasured("cache_hit", "ms", "one bare S3 HEAD", 1.2, e.toString()));
      results.add(Row.unmeasured("cache_miss", "ms", "bare AWS calls", 1.2, e.toString()));
    }
    try {
      if (scale.includes("workers") || scale.includes("media") || scale.includes("images")) {
        WorkerRows workers =
            new WorkerRows(scale, results, tools, work.resolve("scratch"), install);
        if (scale.includes("workers")) {
          workers.run(photo12, photo24, gif, pdf, markdown, docx);
        } else if (scale.includes("images")) {
          workers.runImages(photo12, photo24, gif);
        }
        if (scale.includes("workers") || scale.includes("media")) {
          new MediaRows(scale, results, tools, work.resolve("scratch"), workers).run(photo12);
        }
      }
    } catch (Exception | LinkageError e) {
      failures.add("worker rows: " + e);
      e.printStackTrace();
    }
    boolean cloudRows = Scale.CLOUD_GROUPS.stream().anyMatch(scale::includes);
    if (!inProcessOnly && cloudRows) {
      try {
        new CloudRows(root, endpoint, scale, results, properties, work, tools)
            .run(photo12, photo24, pdf, markdown, docx);
      } catch (Exception | LinkageError e) {
        failures.add("local cloud rows: " + e);
        e.printStackTrace();
      }
    } else {
      results.note("--in-process: the local cloud's rows were not run");
    }
    if (endpoint != null) {
      endpoint.close();
    }
    failures.forEach(f -> results.note("failed: " + f));
    results.note(
        String.format(java.util.Locale.ROOT, "bench took %.0f s", Timer.since(start) / 1000));
    System.out.println();
    results.print(System.out);
    results.write(output, scale.smoke());
    System.out.println("\nbench: wrote " + output);
    return results.rows().values().stream().anyMatch(r -> r.value() != null) ? 0 : 1;
  }
}
