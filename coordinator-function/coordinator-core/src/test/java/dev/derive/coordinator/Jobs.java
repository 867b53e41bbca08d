package dev.derive.coordinator;

import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.plan.Plan;
import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Test jobs with plans of any length. */
public final class Jobs {
  public static final SourceIdentity SOURCE =
      new SourceIdentity("src", "photos/cat.jpg", null, "\"etag\"", 1234, "image/jpeg");

  private Jobs() {}

  /** A fresh fingerprint-shaped id. */
  public static String newId() {
    String hex = UUID.randomUUID().toString().replace("-", "");
    return hex + hex;
  }

  /** A claimed job of {@code steps} image steps with the given lease. */
  public static Job claimed(String id, int steps, Instant now, Duration lease) {
    List<PlannedStep> planned = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      planned.add(
          new PlannedStep(
              "image",
              List.of(new Operation("resize", Map.of("width", 10 * (i + 1), "height", 10))),
              "image/jpeg",
              "image/jpeg",
              ObjectRef.of("derivatives", "derivatives/" + (i == steps - 1 ? id : id + "-" + i))));
    }
    return Job.claimed(
        new Plan(id, planned), SOURCE, now, lease, Duration.ofDays(1), "trace-" + id);
  }
}
