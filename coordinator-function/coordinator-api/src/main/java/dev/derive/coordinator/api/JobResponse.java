package dev.derive.coordinator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.JobView;
import dev.derive.coordinator.job.StepRun;
import dev.derive.protocol.JobStatus;
import java.time.Instant;
import java.util.List;

/**
 * The body of a {@code GET /v1/derivatives/{id}} response.
 *
 * @param id the job id
 * @param status life-cycle status
 * @param steps each step's capability, status and timings
 * @param error why it failed, when FAILED
 * @param download the derivative, when SUCCEEDED
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobResponse(
    String id,
    JobStatus status,
    List<StepResponse> steps,
    ErrorResponse error,
    DownloadResponse download) {

  /**
   * One step.
   *
   * @param capability capability that runs it
   * @param status PENDING, SUCCEEDED or FAILED
   * @param startedAt when its worker started (RFC 3339), if it has reported
   * @param finishedAt when its worker finished (RFC 3339), if it has reported
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record StepResponse(
      String capability, String status, String startedAt, String finishedAt) {}

  /**
   * A failed job's error.
   *
   * @param type problem type URI of the error kind
   * @param detail explanation
   * @param step index of the failed step
   * @param retryable whether a new request may succeed
   */
  public record ErrorResponse(String type, String detail, int step, boolean retryable) {}

  static JobResponse of(JobView view) {
    List<StepResponse> steps =
        view.steps().stream()
            .map(
                (StepRun s) ->
                    new StepResponse(
                        s.capability(), s.status(), text(s.startedAt()), text(s.finishedAt())))
            .toList();
    JobError error = view.error();
    return new JobResponse(
        view.id(),
        view.status(),
        steps,
        error == null
            ? null
            : new ErrorResponse(
                Problems.typeOf(error.type()), error.detail(), error.step(), error.retryable()),
        DownloadResponse.of(view.download()));
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
