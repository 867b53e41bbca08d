package dev.derive.protocol.message;

import java.util.List;
import java.util.Objects;

/**
 * The work order the coordinator sends to a capability's queue: read {@code input}, apply {@code
 * operations} in order (adjacent operations of one capability fused into one step), write the
 * result to {@code output}. A worker never decides what runs next.
 *
 * @param jobId the job's fingerprint (64 lower-case hex characters)
 * @param stepIndex 0-based index of this step in the job's plan
 * @param stepCount number of steps in the plan
 * @param capability capability that owns the step, e.g. {@code image}
 * @param operations operations to apply, in order
 * @param input object to read
 * @param inputMediaType media type of the input, as detected by the coordinator
 * @param output object to write (content-addressed: its key is derived from the step's fingerprint)
 * @param outputMediaType media type the step writes
 * @param traceId opaque id for correlating logs across functions
 */
public record StepMessage(
    String jobId,
    int stepIndex,
    int stepCount,
    String capability,
    List<Operation> operations,
    ObjectRef input,
    String inputMediaType,
    ObjectRef output,
    String outputMediaType,
    String traceId) {
  public StepMessage {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(capability, "capability");
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(output, "output");
    operations = operations == null ? List.of() : List.copyOf(operations);
  }
}
