package dev.derive.bench;

import java.util.ArrayList;
import java.util.List;

/** Plain warm-up then repeated wall-clock timing (no JMH: the rows cross process boundaries). */
public final class Timer {
  private Timer() {}

  /** Something timed; may throw anything, which ends the measurement. */
  @FunctionalInterface
  public interface Action {
    /** Runs once; {@code run} is its 0-based index among warm-ups and measured runs. */
    void run(int run) throws Exception;
  }

  /**
   * Runs {@code action} {@code warmups} times untimed, then {@code runs} times timed.
   *
   * @return the timings in milliseconds
   */
  public static Stats time(int warmups, int runs, Action action) throws Exception {
    for (int i = 0; i < warmups; i++) {
      action.run(i);
    }
    List<Double> samples = new ArrayList<>(runs);
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      action.run(warmups + i);
      samples.add((System.nanoTime() - start) / 1e6);
    }
    return Stats.of(samples);
  }

  /** Milliseconds since {@code startNanos} ({@link System#nanoTime()}). */
  public static double since(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e6;
  }
}
