package dev.derive.worker.text;

import dev.derive.worker.runtime.WorkerArtifactContract;
import io.quarkus.test.junit.QuarkusTest;

/** The Quarkus wiring: the handler, its processor and the transformer of this artifact. */
@QuarkusTest
class TextStepHandlerTest extends WorkerArtifactContract {
  TextStepHandlerTest() {
    super("text", TextTransformer.class);
  }
}
