package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepMessage;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The one thing a capability contributes to a worker: turn the step's input file into its output
 * file. Everything else (queues, S3, results, retries, and checking the step against the
 * capability's declaration) belongs to the runtime: a transformer is handed only steps its
 * declaration allows, with typed, defaulted parameters ({@link DeclaredStep}, {@link Parameters}).
 */
public interface StepTransformer {

  /**
   * Applies {@code step}'s operations to {@code input} and writes the result to {@code output}
   * (already created, empty) in {@code step.outputMediaType()}.
   *
   * @throws PermanentStepFailure when the step can never succeed with this input (corrupt input,
   *     unsupported format, over a limit)
   * @throws IOException on local I/O trouble; the step is retried
   */
  void transform(DeclaredStep step, Path input, Path output) throws IOException;

  /**
   * Binds {@code step} to the declaration of its capability on this transformer's class path (the
   * worker module's own, {@link DeclaredStep#onClassPath}) and transforms it: what probes and tests
   * of one worker module call. The runtime binds with the declaration it loaded.
   *
   * @throws PermanentStepFailure {@code invalid-step} when the declaration does not allow the step,
   *     else as {@link #transform(DeclaredStep, Path, Path)}
   */
  default void transform(StepMessage step, Path input, Path output) throws IOException {
    transform(DeclaredStep.onClassPath(step, getClass().getClassLoader()), input, output);
  }

  /**
   * The capability's self-test (a probe, as Alfresco T-Engines have): a real transform of a
   * generated file in {@code scratch}, checked against the known result. Run before the Lambda
   * SnapStart snapshot, so it must call no AWS service and generate no id or random value.
   *
   * @param scratch an existing, writable folder; the probe deletes the files it creates there
   * @throws IllegalStateException if the output is not the expected one (a broken build)
   * @throws IOException on local I/O trouble
   */
  void probe(Path scratch) throws IOException;
}
