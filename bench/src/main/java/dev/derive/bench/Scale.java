package dev.derive.bench;

import java.util.Set;

/**
 * How much the bench repeats: a full run, or a smoke run (a tiny version of every row, to prove the
 * harness works; its numbers mean nothing).
 *
 * @param smoke whether this is the smoke run
 * @param warmups untimed runs before the in-process cache hits are timed: enough for the JIT's
 *     steady state, since what a hit adds to its one HEAD is ~1 ms of Java that C2 halves
 * @param runs timed runs of each in-process measurement
 * @param e2eRuns timed requests of each end-to-end row
 * @param stormSize identical concurrent requests of {@code dedup_storm} (500 in a full run)
 * @param burstSize distinct concurrent thumbnails of {@code burst_300} (300 in a full run)
 * @param only the groups of rows to run ({@link #GROUPS}); empty for all
 */
public record Scale(
    boolean smoke,
    int warmups,
    int runs,
    int e2eRuns,
    int stormSize,
    int burstSize,
    java.util.Set<String> only) {

  /**
   * The groups of rows {@code --only} may name; {@code media} is the FFmpeg rows alone ({@code
   * heic_thumbnail}, {@code video_poster}) and {@code images} the image worker's rows alone ({@code
   * thumbnail_*}, {@code smartcrop*}, {@code animated_gif}, {@code info}), both of which {@code
   * workers} includes; {@code e2e_1step} and {@code e2e_3step} are those rows of {@code e2e} alone
   * (a few minutes where {@code e2e} takes a quarter of an hour on a loaded machine).
   */
  public static final java.util.List<String> GROUPS =
      java.util.List.of(
          "coordinator",
          "workers",
          "media",
          "images",
          "e2e",
          "storm",
          "burst",
          "cold",
          "rss",
          "e2e_1step",
          "e2e_3step");

  /** The groups measured through the local cloud. */
  public static final java.util.List<String> CLOUD_GROUPS = GROUPS.subList(4, GROUPS.size());

  /** The full run. */
  public static Scale fullRun() {
    return new Scale(false, 1000, 100, 15, 500, 300, java.util.Set.of());
  }

  /** The smoke run. */
  public static Scale smokeRun() {
    return new Scale(true, 1, 3, 1, 20, 3, java.util.Set.of());
  }

  /**
   * Warm-ups before the in-process misses are timed: fewer than for the hits, since a miss is five
   * round trips to the endpoint and its Java share is small beside them.
   */
  public int missWarmups() {
    return smoke ? 1 : 100;
  }

  /**
   * Untimed jobs before an end-to-end row is timed: ~150 in a full run (override with {@code
   * -Dderive.bench.e2eWarmups}), so the functions' code on the request path is compiled. They run
   * C1 only ({@code -XX:TieredStopAtLevel=1}), which compiles a method once it was invoked ~200
   * times ({@code Tier3InvocationThreshold}); until then it is interpreted, and a function a single
   * job has warmed runs much of each request's SDK and JSON code in the interpreter.
   */
  public int e2eWarmups() {
    return smoke ? 0 : Integer.getInteger("derive.bench.e2eWarmups", 150);
  }

  /** Warm-ups for the heavy worker rows (fewer than for the round trips). */
  public int workerWarmups() {
    return smoke ? 1 : 3;
  }

  /**
   * Warm-ups of a short worker row ({@code text_pdf}: tens of milliseconds a run): 100 in a full
   * run, as many documents as a warm worker instance has long since read, so its code is compiled
   * as in steady traffic. With the heavy rows' 3 it timed runs 4 to 13 of a fresh JVM: mostly
   * interpreted PDFBox (docs/pdf-text.md).
   */
  public int shortWorkerWarmups() {
    return smoke ? 1 : 100;
  }

  /** Timed runs for the heavy worker rows. */
  public int workerRuns() {
    return smoke ? 2 : 10;
  }

  /** This scale running only {@code groups} (a subset of {@link #GROUPS}). */
  public Scale only(java.util.Set<String> groups) {
    return new Scale(smoke, warmups, runs, e2eRuns, stormSize, burstSize, Set.copyOf(groups));
  }

  /** Whether the rows of {@code group} run. */
  public boolean includes(String group) {
    return only.isEmpty() || only.contains(group);
  }
}
