package dev.derive.coordinator.job;

import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.coordinator.storage.PresignedDownload;
import dev.derive.protocol.JobStatus;
import java.util.List;

/**
 * What {@code GET /v1/derivatives/{id}} reports about a job.
 *
 * @param id the job id (the derivative's fingerprint)
 * @param status life-cycle status
 * @param plan the planned steps (capability, operations, media types), same length as {@code steps}
 * @param steps each step's capability, status and timings (empty when only the cached derivative is
 *     known)
 * @param error why it failed, when FAILED
 * @param download the derivative, when SUCCEEDED
 */
public record JobView(
    String id,
    JobStatus status,
    List<PlannedStep> plan,
    List<StepRun> steps,
    JobError error,
    PresignedDownload download) {
  public JobView {
    plan = List.copyOf(plan);
    steps = List.copyOf(steps);
  }
}
