package dev.derive.worker.video;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.worker.runtime.WorkerArtifactContract;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Quarkus wiring: the handler, its processor and the transformer of this artifact. */
@QuarkusTest
class VideoStepHandlerTest extends WorkerArtifactContract {
  @Inject VideoTransformer transformer;

  VideoStepHandlerTest() {
    super("video", VideoTransformer.class);
  }

  @Test
  void itsProbePassesAndLeavesNothingBehind(@TempDir Path scratch) throws IOException {
    transformer.probe(scratch);
    try (var left = Files.list(scratch)) {
      assertThat(left).isEmpty();
    }
  }
}
