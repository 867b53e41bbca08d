package dev.derive.worker.runtime.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.StepTransformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerPrimingTest {

  /** Records the scratch folder it was given and leaves a file there, as a careless probe would. */
  private static final class RecordingTransformer implements StepTransformer {
    final List<Path> scratches = new ArrayList<>();
    final boolean fail;

    RecordingTransformer(boolean fail) {
      this.fail = fail;
    }

    @Override
    public void transform(DeclaredStep step, Path input, Path output) {
      throw new UnsupportedOperationException("priming only probes");
    }

    @Override
    public void probe(Path scratch) throws java.io.IOException {
      assertThat(scratch).isEmptyDirectory();
      scratches.add(scratch);
      Files.writeString(scratch.resolve("left-over"), "x");
      if (fail) {
        throw new IllegalStateException("recording probe: wrong output");
      }
    }
  }

  @Test
  void primingRunsTheProbeOnceInAScratchFolderItDeletesAfterwards() throws Exception {
    RecordingTransformer transformer = new RecordingTransformer(false);

    WorkerPriming.prime(transformer);

    assertThat(transformer.scratches).hasSize(1);
    assertThat(transformer.scratches.get(0)).doesNotExist();
  }

  @Test
  void aFailingProbeFailsThePrimingAndStillDeletesTheScratchFolder() {
    RecordingTransformer transformer = new RecordingTransformer(true);

    assertThatThrownBy(() -> WorkerPriming.prime(transformer))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("wrong output");
    assertThat(transformer.scratches.get(0)).doesNotExist();
  }

  @Test
  void beforeCheckpointPrimesTheWorkersTransformer() throws Exception {
    RecordingTransformer transformer = new RecordingTransformer(false);

    List<String> built = new ArrayList<>();
    WorkerPriming priming =
        new WorkerPriming(
            transformer,
            null,
            () -> {
              built.add("processor");
              return null;
            });
    priming.register(null);
    assertThat(built).as("the processor (the SDK clients) is not built at startup").isEmpty();
    priming.registration().beforeCheckpoint(null);

    assertThat(built).as("but before the snapshot").containsExactly("processor");
    assertThat(transformer.scratches).hasSize(1);
  }
}
