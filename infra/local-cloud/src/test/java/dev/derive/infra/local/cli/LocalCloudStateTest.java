package dev.derive.infra.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which API {@code ./derive upload} and {@code ./derive derive} call: the one the running {@code
 * ./derive up} recorded (its {@code --port}), unless {@code --api} names another (found by a
 * newcomer's trial: they called :3000 whatever port the API was on).
 */
class LocalCloudStateTest {
  @TempDir Path state;

  @Test
  void theApiIsTheOneTheRunningLocalCloudRecordedUnlessTheCommandNamesOne() throws Exception {
    new LocalCloudState(
            URI.create("http://127.0.0.1:45999"),
            "us-east-1",
            "derive-local",
            state.resolve("functions.log"),
            URI.create("http://127.0.0.1:3190"))
        .write(state);

    assertThat(LocalCloudState.api(null, state)).isEqualTo(URI.create("http://127.0.0.1:3190"));
    assertThat(LocalCloudState.api("http://127.0.0.1:3270", state))
        .isEqualTo(URI.create("http://127.0.0.1:3270"));
  }

  @Test
  void withoutARunningLocalCloudTheApiIsTheDefaultPort(@TempDir Path empty) {
    assertThat(LocalCloudState.api(null, empty)).isEqualTo(URI.create("http://127.0.0.1:3000"));
  }
}
