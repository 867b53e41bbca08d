package dev.derive.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The median and 90th percentile of repeated measurements (nearest-rank), in the unit of the
 * samples (milliseconds for timings).
 *
 * @param median the 50th percentile
 * @param p90 the 90th percentile
 * @param count how many samples
 */
public record Stats(double median, double p90, int count) {

  /** The statistics of {@code samples}; NaN for both percentiles when there are none. */
  public static Stats of(List<Double> samples) {
    if (samples.isEmpty()) {
      return new Stats(Double.NaN, Double.NaN, 0);
    }
    List<Double> sorted = new ArrayList<>(samples);
    Collections.sort(sorted);
    return new Stats(rank(sorted, 0.5), rank(sorted, 0.9), sorted.size());
  }

  private static double rank(List<Double> sorted, double quantile) {
    int index = (int) Math.ceil(quantile * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }
}
