package dev.derive.protocol.message;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
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
 * @param executionId the execution of the job this dispatch belongs to (a new one per claim); the
 *     worker copies it into its results, and the coordinator applies only results of the job's
 *     current execution ({@code null} from senders that predate it)
 * @param inputEtag the ETag the input must still have ({@code If-Match} on the read), set when the
 *     input is the source, so bytes of a since-overwritten source never land under the old
 *     fingerprint; {@code null} for content-addressed intermediates
 * @param objects the other objects the step reads, by the name of the parameter that names each
 *     (declared {@code sourceObject}); empty for most steps and from senders that predate it
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
    String traceId,
    String executionId,
    String inputEtag,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, PinnedObject> objects) {
  public StepMessage {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(capability, "capability");
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(output, "output");
    operations = operations == null ? List.of() : List.copyOf(operations);
    objects = objects == null ? Map.of() : Map.copyOf(objects);
  }

  /** A step message of no particular execution and without an ETag pin (tests, probes). */
  public StepMessage(
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
    this(
        jobId,
        stepIndex,
        stepCount,
        capability,
        operations,
        input,
        inputMediaType,
        output,
        outputMediaType,
        traceId,
        null,
        null,
        Map.of());
  }
}
