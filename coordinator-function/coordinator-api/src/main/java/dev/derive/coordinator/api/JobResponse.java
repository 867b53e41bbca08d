package dev.derive.coordinator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.derive.coordinator.job.JobError;
import dev.derive.coordinator.job.JobView;
import dev.derive.coordinator.job.StepRecord;
import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.protocol.JobStatus;
import dev.derive.protocol.message.Operation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of a {@code GET /v1/derivatives/{id}} response.
 *
 * @param id the job id
 * @param status life-cycle status
 * @param steps each step's capability, status and timings
 * @param error why it failed, when FAILED
 * @param download the derivative, when SUCCEEDED
 * @param outcome only in the answer to a {@code POST} that waited for the job: {@code joined} or
 *     {@code started}, as in {@link SubmissionResponse}; absent from {@code GET}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobResponse(
    String id,
    JobStatus status,
    List<StepResponse> steps,
    ErrorResponse error,
    DownloadResponse download,
    String outcome) {

  /** This answer with {@code outcome} set. */
  JobResponse withOutcome(String outcome) {
    return new JobResponse(id, status, steps, error, download, outcome);
  }

  /**
   * One step.
   *
   * @param capability capability that runs it
   * @param operations names of the operations it applies, in order
   * @param inputMediaType media type it reads
   * @param outputMediaType media type it writes
   * @param status PENDING (not sent yet), QUEUED, RUNNING (a worker started it), SUCCEEDED or
   *     FAILED
   * @param startedAt when its worker started (RFC 3339), if it has reported
   * @param finishedAt when its worker finished (RFC 3339), if it has reported
   * @param durationMillis {@code finishedAt - startedAt} in milliseconds, if it has reported
   * @param attempts deliveries to its worker as the worker reported them (0 if unknown)
   * @param reused whether an existing output was reused instead of made
   * @param expectedBy while RUNNING: when this delivery must have ended (RFC 3339), its start plus
   *     its worker's timeout
   * @param overdue while RUNNING: whether {@code expectedBy} has passed without a result (the
   *     worker died or hangs; SQS delivers the step again after its visibility timeout)
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record StepResponse(
      String capability,
      List<String> operations,
      String inputMediaType,
      String outputMediaType,
      String status,
      String startedAt,
      String finishedAt,
      Long durationMillis,
      int attempts,
      boolean reused,
      String expectedBy,
      Boolean overdue) {}

  /**
   * A failed job's error.
   *
   * @param type problem type URI of the error kind
   * @param title the type's title, the one every problem of that type has ({@link Problems#title})
   * @param detail explanation
   * @param step the failed step's number, counting from 1 as every detail and the CLI do: its entry
   *     is {@code steps[step - 1]}
   * @param retryable whether a new request may succeed
   */
  public record ErrorResponse(
      String type, String title, String detail, int step, boolean retryable) {}

  static JobResponse of(JobView view) {
    List<StepResponse> steps = new ArrayList<>();
    for (int i = 0; i < view.steps().size(); i++) {
      StepRecord run = view.steps().get(i);
      PlannedStep planned = i < view.plan().size() ? view.plan().get(i) : null;
      steps.add(
          new StepResponse(
              run.capability(),
              planned == null
                  ? null
                  : planned.operations().stream().map(Operation::operation).toList(),
              planned == null ? null : planned.inputMediaType(),
              planned == null ? null : planned.outputMediaType(),
              run.status().name(),
              text(run.startedAt()),
              text(run.finishedAt()),
              run.startedAt() == null || run.finishedAt() == null
                  ? null
                  : Duration.between(run.startedAt(), run.finishedAt()).toMillis(),
              run.attempts(),
              run.reused(),
              text(i < view.expectedBy().size() ? view.expectedBy().get(i) : null),
              i < view.expectedBy().size() && view.expectedBy().get(i) != null
                  ? view.isOverdue(i)
                  : null));
    }
    JobError error = view.error();
    return new JobResponse(
        view.id(),
        view.status(),
        steps,
        error == null
            ? null
            : new ErrorResponse(
                Problems.typeOf(error.type()),
                Problems.title(error.type()),
                error.detail(),
                error.step() + 1, // the stored index counts from 0
                error.retryable()),
        DownloadResponse.of(view.download()),
        null);
  }

  private static String text(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
