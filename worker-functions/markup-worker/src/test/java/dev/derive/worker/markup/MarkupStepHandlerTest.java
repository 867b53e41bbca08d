package dev.derive.worker.markup;

import dev.derive.worker.runtime.WorkerArtifactContract;
import io.quarkus.test.junit.QuarkusTest;

/** The Quarkus wiring: the handler, its processor and the transformer of this artifact. */
@QuarkusTest
class MarkupStepHandlerTest extends WorkerArtifactContract {
  MarkupStepHandlerTest() {
    super("markup", MarkupTransformer.class);
  }
}
