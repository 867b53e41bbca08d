package dev.derive.coordinator.dispatch;

import dev.derive.coordinator.job.Job;
import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.StepMessage;

/**
 * Builds the {@link StepMessage} for a step of a job, straight from the job's plan: with the job's
 * execution id, and, when the step reads the source, the source's ETag to read it with ({@code
 * If-Match}), so the bytes a worker reads are the ones the fingerprint names.
 */
public final class StepMessages {
  private StepMessages() {}

  /**
   * The job's current step: step 0 reads the source (at the version the request named, if any); a
   * later one (after prefix reuse) reads the output of the step before it.
   */
  public static StepMessage first(Job job) {
    int index = job.currentStep();
    return of(job, index, index == 0 ? job.source().ref() : job.plan().step(index - 1).output());
  }

  /**
   * Step {@code index}, reading {@code input} (the previous step's output).
   *
   * @throws IndexOutOfBoundsException if the plan has no such step
   */
  public static StepMessage of(Job job, int index, ObjectRef input) {
    PlannedStep step = job.plan().step(index);
    return new StepMessage(
        job.jobId(),
        index,
        job.plan().size(),
        step.capability(),
        step.operations(),
        input,
        step.inputMediaType(),
        step.output(),
        step.outputMediaType(),
        job.traceId(),
        job.executionId(),
        input.equals(job.source().ref()) ? job.source().etag() : null,
        step.objects());
  }
}
