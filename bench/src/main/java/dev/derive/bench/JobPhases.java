package dev.derive.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a waited-for job's time outside its steps goes, from the client's clock and the steps'
 * {@code startedAt}/{@code finishedAt} (the workers' clocks: the same machine), in milliseconds:
 * before the first step starts (POST → coordinator → dispatch → queue → worker), between steps
 * (result → progress → next dispatch → queue → worker), after the last one (result → progress → the
 * waiting POST's next read → answer).
 */
final class JobPhases {
  private final List<Double> before = new ArrayList<>();
  private final List<Double> between = new ArrayList<>();
  private final List<Double> after = new ArrayList<>();

  /** Adds one job, posted and answered at these client times (epoch milliseconds). */
  void add(JsonNode job, long postedEpochMillis, long answeredEpochMillis) {
    JsonNode steps = job.path("steps");
    if (steps.isEmpty() || !steps.get(0).hasNonNull("startedAt")) {
      return;
    }
    before.add((double) (epochMillis(steps.get(0), "startedAt") - postedEpochMillis));
    double gaps = 0;
    for (int i = 1; i < steps.size(); i++) {
      gaps += epochMillis(steps.get(i), "startedAt") - epochMillis(steps.get(i - 1), "finishedAt");
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

  /** The sum of the steps' reported {@code durationMillis}. */
  static double stepMillis(JsonNode job) {
    double total = 0;
    for (JsonNode step : job.path("steps")) {
      total += step.path("durationMillis").asDouble();
    }
    return total;
  }
}
