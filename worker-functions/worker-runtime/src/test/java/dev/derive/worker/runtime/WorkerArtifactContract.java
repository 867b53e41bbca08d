package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.worker.runtime.lambda.WorkerStepHandler;
import jakarta.enterprise.inject.spi.CDI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What every worker artifact's Quarkus wiring must give: the handler, its processor and the
 * transformer of the artifact, serving the artifact's one capability. A worker module's {@code
 * <Cap>StepHandlerTest} extends it with {@code @QuarkusTest} and names its capability and
 * transformer; the beans are looked up in the running application ({@link CDI#current}).
 */
public abstract class WorkerArtifactContract {
  private final String capability;
  private final Class<? extends StepTransformer> transformer;

  /**
   * @param capability the name the artifact's declaration must carry
   * @param transformer the artifact's transformer bean type
   */
  protected WorkerArtifactContract(
      String capability, Class<? extends StepTransformer> transformer) {
    this.capability = capability;
    this.transformer = transformer;
  }

  @Test
  void theArtifactServesItsCapabilityWithItsTransformer() {
    assertThat(bean(CapabilityDescriptor.class).name()).isEqualTo(capability);
    assertThat(bean(transformer)).isNotNull();
  }

  @Test
  void handlerDropsAMalformedStepWithoutAskingForARetry() {
    SQSMessage malformed = new SQSMessage();
    malformed.setMessageId("m-1");
    malformed.setBody("{\"not\":\"a step\"}");
    SQSEvent event = new SQSEvent();
    event.setRecords(List.of(malformed));

    SQSBatchResponse response = bean(WorkerStepHandler.class).handleRequest(event, null);

    assertThat(response.getBatchItemFailures()).isEmpty();
  }

  private static <T> T bean(Class<T> type) {
    return CDI.current().select(type).get();
  }
}
