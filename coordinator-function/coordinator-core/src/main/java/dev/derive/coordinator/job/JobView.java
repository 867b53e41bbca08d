package dev.derive.coordinator.job;

import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.protocol.JobStatus;
import dev.derive.storage.PresignedDownload;
import java.time.Instant;
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
 * @param expectedBy for each RUNNING step, when its delivery must have ended (its start plus its
 *     worker's timeout), else {@code null}; same length as {@code steps}
 * @param asOf when this view was read, against which {@code expectedBy} is judged
 * @param retryAfter when FAILED retryably and held by its backoff: the earliest time a request may
 *     claim it again (a request meeting it before then is answered 503 with {@code Retry-After});
 *     {@code null} otherwise
 */
public record JobView(
    String id,
    JobStatus status,
    List<PlannedStep> plan,
    List<StepRecord> steps,
    JobError error,
    PresignedDownload download,
    List<Instant> expectedBy,
    Instant asOf,
    Instant retryAfter) {
  public JobView {
    plan = List.copyOf(plan);
    steps = List.copyOf(steps);
    expectedBy = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(expectedBy));
  }

  /**
   * This job as its derivative in the bucket shows it: SUCCEEDED with {@code download}, its steps
   * as recorded so far (a last step whose result is not recorded yet keeps its recorded status and
   * has no timings). The derivative is content-addressed and only ever holds the finished bytes, so
   * its presence decides whatever the record says, and the record follows ({@code
   * docs/job-lifecycle.md}, "the bytes decide").
   */
  public JobView made(PresignedDownload download) {
    return new JobView(
        id, JobStatus.SUCCEEDED, plan, steps, null, download, expectedBy, asOf, null);
  }

  /**
   * Whether step {@code index} has gone quiet: it is RUNNING past the time its delivery had (the
   * worker died or hangs; SQS delivers the step again after its visibility timeout).
   */
  public boolean isOverdue(int index) {
    Instant deadline = index < expectedBy.size() ? expectedBy.get(index) : null;
    return deadline != null && asOf.isAfter(deadline);
  }
}
