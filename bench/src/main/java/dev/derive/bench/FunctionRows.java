package dev.derive.bench;

import dev.derive.infra.local.LocalCloud;
import dev.derive.infra.local.cli.UploadCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-function rows, from the Lambda-style {@code REPORT} lines the local cloud writes (its
 * {@code Max Memory Used} is the process's VmHWM): {@code cold_start_<function>}, {@code
 * first_invoke_<function>} and {@code rss_<function>}.
 */
final class FunctionRows {
  private static final Pattern REPORT =
      Pattern.compile(
          "^\\[(\\w+)\\] REPORT RequestId: \\S+\\tDuration: ([0-9.]+) ms.*Memory Size: (\\d+) MB"
              + "\\tMax Memory Used: (\\d+) MB(?:\\tInit Duration: ([0-9.]+) ms)?");

  /** The local cloud's line for an instance's end of Init, written before its first invocation. */
  private static final Pattern INIT_REPORT = Pattern.compile("^\\[(\\w+)\\] INIT_REPORT ");

  private final BenchApi api;
  private final Scale scale;
  private final Results results;
  private final Path work;
  private final List<String> reports = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, OptionalLong> classesAtInit = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<OptionalLong>> classesLoaded =
      new ConcurrentHashMap<>();
  private volatile boolean countClasses;

  /**
   * @param work the run's folder (the local cloud's functions run under {@code work/cloud})
   */
  FunctionRows(BenchApi api, Scale scale, Results results, Path work) {
    this.api = api;
    this.scale = scale;
    this.results = results;
    this.work = work;
  }

  /**
   * Keeps {@code line} of the local cloud's output if it is a {@code REPORT} line. While cold
   * starts are counted, an {@code INIT_REPORT} line has the instance's classes counted at once: the
   * local cloud writes it, and so waits for this, before the first invocation reaches the instance,
   * so the count is Init's alone.
   */
  void observe(String line) {
    if (countClasses && line.contains("] INIT_REPORT ")) {
      Matcher init = INIT_REPORT.matcher(line);
      if (init.find()) {
        String function = init.group(1);
        if (!classesAtInit.containsKey(function)) {
          classesAtInit.put(function, loadedClasses(function)); // blocking: the instance waits
        }
      }
    }
    if (line.contains("REPORT RequestId:")) {
      reports.add(line);
      Matcher m = REPORT.matcher(line);
      if (countClasses && m.find() && m.group(5) != null) {
        String function = m.group(1);
        // read at once, while the instance idles after its first invocation
        classesLoaded.computeIfAbsent(
            function, f -> CompletableFuture.supplyAsync(() -> loadedClasses(f)));
      }
    }
  }

  /**
   * Each function's cold start alone: every instance is stopped, then requests that need one
   * function after another start them one at a time (API, then markup → pdf → image with the
   * progress function between them, then text, then office → pdf → image); the same requests again
   * on new sources give the warm invocation each first one is compared with.
   */
  void coldStarts(LocalCloud cloud, UploadCommand upload, Path pdf, Path markdown, Path docx)
      throws Exception {
    double jvm = jvmStartMillis();
    boolean alone = !scale.smoke();
    Map<String, Long> stopped = alone ? stopFunctionProcesses() : Map.of();
    int reportsBefore = alone ? reports.size() : 0;
    countClasses = alone;
    for (int pass = 0; pass < (alone ? 2 : 0); pass++) {
      api.get("/v1/capabilities");
      Thread.sleep(300);
      String md = upload.upload(markdown);
      api.postWaiting(md, WorkerRows.thumbnailTarget());
      String pdfKey = upload.upload(pdf);
      api.postWaiting(pdfKey, BenchApi.JSON.createObjectNode().put("mediaType", "text/plain"));
      String docxKey = upload.upload(docx);
      api.postWaiting(docxKey, WorkerRows.thumbnailTarget());
      Thread.sleep(500);
    }
    countClasses = false;
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
                  ? "Init Duration of a lone instance through the runtime interface client; "
                      + classes(entry.getKey())
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
  void peakMemory() {
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

  /**
   * What the note of {@code function}'s cold start says of the classes its JVM loaded: during Init
   * (counted at its {@code INIT_REPORT}), and how many more its first invocation loaded.
   */
  private String classes(String function) {
    OptionalLong atInit = classesAtInit.getOrDefault(function, OptionalLong.empty());
    CompletableFuture<OptionalLong> count = classesLoaded.get(function);
    OptionalLong afterFirst = count == null ? OptionalLong.empty() : count.join();
    if (atInit.isEmpty()) {
      return "classes loaded during Init unknown (no INIT_REPORT or no jcmd answer)"
          + (afterFirst.isPresent()
              ? "; " + afterFirst.getAsLong() + " by the end of its first invocation"
              : "");
    }
    return atInit.getAsLong()
        + " classes loaded during Init"
        + (afterFirst.isPresent()
            ? " (+" + (afterFirst.getAsLong() - atInit.getAsLong()) + " by its first invocation)"
            : "");
  }

  /**
   * The classes the JVM of {@code function}'s instance has loaded ({@code java.cls.loadedClasses},
   * by {@code jcmd PerfCounter.print}); empty if there is no such process or jcmd does not answer.
   */
  private OptionalLong loadedClasses(String function) {
    Path functions = work.resolve("cloud").resolve("functions").toAbsolutePath();
    String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    for (ProcessHandle handle : ProcessHandle.current().descendants().toList()) {
      try {
        Path cwd = Files.readSymbolicLink(Path.of("/proc", Long.toString(handle.pid()), "cwd"));
        if (!cwd.startsWith(functions)
            || !functions.relativize(cwd).getName(0).toString().equals(function)) {
          continue;
        }
        Process p =
            new ProcessBuilder(jcmd, Long.toString(handle.pid()), "PerfCounter.print")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        Matcher m = LOADED_CLASSES.matcher(out);
        if (m.find()) {
          return OptionalLong.of(Long.parseLong(m.group(1)));
        }
      } catch (IOException e) {
        // not ours, or already gone
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return OptionalLong.empty();
      }
    }
    return OptionalLong.empty();
  }

  private static final Pattern LOADED_CLASSES =
      Pattern.compile("(?m)^java\\.cls\\.loadedClasses=(\\d+)");

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
}
