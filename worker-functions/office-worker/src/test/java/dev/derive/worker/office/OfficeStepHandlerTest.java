package dev.derive.worker.office;

import dev.derive.worker.runtime.WorkerArtifactContract;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The Quarkus wiring: the handler, its processor and the transformer of this artifact, whose office
 * process the application started (and probed) at init.
 */
@QuarkusTest
class OfficeStepHandlerTest extends WorkerArtifactContract {
  OfficeStepHandlerTest() {
    super("office", OfficeTransformer.class);
  }
}
