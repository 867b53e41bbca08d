package dev.derive.bench;

/**
 * How much the bench repeats: a full run, or a smoke run (a tiny version of every row, to prove the
 * harness works; its numbers mean nothing).
 *
 * @param smoke whether this is the smoke run
 * @param warmups untimed runs before each in-process measurement
 * @param runs timed runs of each in-process measurement
 * @param e2eRuns timed requests of each end-to-end row
 * @param stormSize identical concurrent requests of {@code dedup_storm} (500 in a full run)
 * @param burstSize distinct concurrent thumbnails of {@code burst_300} (300 in a full run)
 */
public record Scale(
    boolean smoke, int warmups, int runs, int e2eRuns, int stormSize, int burstSize) {

  /** The full run. */
  public static Scale fullRun() {
    return new Scale(false, 20, 100, 8, 500, 300);
  }

  /** The smoke run. */
  public static Scale smokeRun() {
    return new Scale(true, 1, 3, 1, 20, 3);
  }

  /** Warm-ups for the heavy worker rows (fewer than for the round trips). */
  public int workerWarmups() {
    return smoke ? 1 : 3;
  }

  /** Timed runs for the heavy worker rows. */
  public int workerRuns() {
    return smoke ? 2 : 10;
  }
}
