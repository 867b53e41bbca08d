package dev.derive.worker.video;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import dev.derive.worker.runtime.lambda.WorkerStepHandler;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Quarkus wiring: the handler, its processor and the transformer of this artifact. */
@QuarkusTest
class VideoStepHandlerTest {
  @Inject WorkerStepHandler handler;
  @Inject VideoTransformer transformer;
  @Inject dev.derive.protocol.capability.CapabilityDescriptor declaration;

  @Test
  void theArtifactServesTheVideoCapabilityAndItsProbePasses(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path scratch) throws java.io.IOException {
    assertThat(declaration.name()).isEqualTo("video");
    transformer.probe(scratch);
    try (var left = java.nio.file.Files.list(scratch)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void handlerDropsAMalformedStepWithoutAskingForARetry() {
    SQSMessage malformed = new SQSMessage();
    malformed.setMessageId("m-1");
    malformed.setBody("{\"not\":\"a step\"}");
    SQSEvent event = new SQSEvent();
    event.setRecords(List.of(malformed));

    SQSBatchResponse response = handler.handleRequest(event, null);

    assertThat(response.getBatchItemFailures()).isEmpty();
  }
}
