package dev.derive.coordinator.claim;

import dev.derive.protocol.message.MessageKind;
import java.util.Objects;

/**
 * The message of a {@link LostClaimWatch}: check execution {@code executionId} of job {@code jobId}
 * once its dispatch lease has run out. Sent by the API to the step-results queue, marked by the
 * message attribute {@value #MESSAGE_KIND_ATTRIBUTE} = {@value #KIND}, so that the progress
 * function tells it from a step result.
 *
 * @param jobId the job's fingerprint
 * @param executionId the execution that had sent no step when the check was sent
 */
public record ClaimCheck(String jobId, String executionId) {
  /** The SQS message attribute naming a message's kind. */
  public static final String MESSAGE_KIND_ATTRIBUTE = MessageKind.ATTRIBUTE;

  /** The attribute's value for a claim check. */
  public static final String KIND = "claim-check"; // MessageKind.CLAIM_CHECK

  public ClaimCheck {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(executionId, "executionId");
  }
}
