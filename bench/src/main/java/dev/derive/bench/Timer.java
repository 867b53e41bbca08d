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

  /**
   * Times {@code actions} interleaved: each run times every action once, in turn, so that on a
   * shared machine a burst of load falls on the value and its anchor alike rather than on whichever
   * was measured while it lasted.
   *
   * @return the timings in milliseconds of each action, in the order given
   */
  public static List<Stats> interleaved(int warmups, int runs, Action... actions) throws Exception {
    for (int i = 0; i < warmups; i++) {
      for (Action action : actions) {
        action.run(i);
      }
    }
    List<List<Double>> samples = new ArrayList<>();
    for (int a = 0; a < actions.length; a++) {
      samples.add(new ArrayList<>(runs));
    }
    for (int i = 0; i < runs; i++) {
      for (int a = 0; a < actions.length; a++) {
        long start = System.nanoTime();
        actions[a].run(warmups + i);
        samples.get(a).add((System.nanoTime() - start) / 1e6);
      }
    }
    return samples.stream().map(Stats::of).toList();
  }

  /** Milliseconds since {@code startNanos} ({@link System#nanoTime()}). */
  public static double since(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e6;
  }
}
