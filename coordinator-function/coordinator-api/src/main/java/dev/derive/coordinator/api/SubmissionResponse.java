package dev.derive.coordinator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.derive.coordinator.job.Submission;
import dev.derive.protocol.JobStatus;
import java.util.Locale;

/**
 * The body of a {@code POST /v1/derivatives} response.
 *
 * @param id the derivative's fingerprint, which is also the job id
 * @param status SUCCEEDED on a cache hit, else the job's status
 * @param download the derivative, on a cache hit
 * @param outcome how this request was answered: {@code cached} (the derivative was there), {@code
 *     joined} (it shares a job another request started; nothing new was queued) or {@code started}
 *     (it claimed a new execution). Which steps were skipped because their output was there is each
 *     step's {@code reused} in {@code GET /v1/derivatives/{id}}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SubmissionResponse(
    String id, JobStatus status, DownloadResponse download, String outcome) {

  /** The answer to {@code submission}. */
  static SubmissionResponse of(Submission submission) {
    return new SubmissionResponse(
        submission.jobId(),
        submission.status(),
        DownloadResponse.of(submission.download()),
        outcome(submission.outcome()));
  }

  /** {@code outcome} as the API spells it: lower case. */
  static String outcome(Submission.Outcome outcome) {
    return outcome.name().toLowerCase(Locale.ROOT);
  }
}
