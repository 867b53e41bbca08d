package dev.derive.worker.pdf;

import dev.derive.worker.runtime.WorkerArtifactContract;
import io.quarkus.test.junit.QuarkusTest;

/** The Quarkus wiring: the handler, its processor and the transformer of this artifact. */
@QuarkusTest
class PdfStepHandlerTest extends WorkerArtifactContract {
  PdfStepHandlerTest() {
    super("pdf", PdfTransformer.class);
  }
}
