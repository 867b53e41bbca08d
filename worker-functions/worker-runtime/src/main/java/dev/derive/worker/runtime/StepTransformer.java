package dev.derive.worker.runtime;

import dev.derive.protocol.message.StepMessage;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The one thing a capability contributes to a worker: turn the step's input file into its output
 * file. Everything else (queues, S3, results, retries) belongs to the runtime.
 */
public interface StepTransformer {

  /** The capability this transformer implements, e.g. {@code image}; steps for others fail. */
  String capability();

  /**
   * Applies {@code step.operations()} to {@code input} and writes the result to {@code output}
   * (already created, empty) in {@code step.outputMediaType()}.
   *
   * @throws PermanentStepFailure when the step can never succeed with this input or these
   *     operations (corrupt input, unsupported format, over a limit, invalid operation)
   * @throws IOException on local I/O trouble; the step is retried
   */
  void transform(StepMessage step, Path input, Path output) throws IOException;

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
