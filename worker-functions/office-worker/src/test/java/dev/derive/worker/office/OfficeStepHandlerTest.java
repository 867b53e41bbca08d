package dev.derive.worker.office;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.worker.runtime.lambda.WorkerStepHandler;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Quarkus wiring: the handler, its processor and the transformer of this artifact, whose office
 * process the application started (and probed) at init.
 */
@QuarkusTest
class OfficeStepHandlerTest {
  @Inject WorkerStepHandler handler;
  @Inject OfficeTransformer transformer;
  @Inject CapabilityDescriptor declaration;

  @Test
  void theArtifactServesTheOfficeCapability() {
    assertThat(declaration.name()).isEqualTo("office");
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
