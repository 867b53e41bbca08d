package dev.derive.coordinator.progress;

import dev.derive.aws.lambda.SnapStartPriming;
import dev.derive.protocol.capability.Capabilities;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import io.quarkus.arc.ClientProxy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Startup;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * What this artifact's three functions prime for SnapStart ({@link SnapStartPriming}): at startup,
 * the beans of the one handler {@code quarkus.lambda.handler} selects (step results: the lifecycle
 * and its DynamoDB and SQS clients; upload events: Tika's detector, the planner, the presets and
 * the coordinator's clients; callbacks: the sender, its key and the SQS client), and before the
 * snapshot a sample step result and next step through the message codec. The other handlers' beans
 * are never built.
 */
@ApplicationScoped
public class ProgressPriming {
  private final String handler;
  private final Instance<StepResultBatch> stepResults;
  private final Instance<UploadEventBatch> uploadEvents;
  private final Instance<CallbackBatch> callbacks;
  private SnapStartPriming registration;

  /**
   * @param handler the handler this function runs ({@code QUARKUS_LAMBDA_HANDLER})
   */
  @Inject
  ProgressPriming(
      @ConfigProperty(name = "quarkus.lambda.handler") String handler,
      Instance<StepResultBatch> stepResults,
      Instance<UploadEventBatch> uploadEvents,
      Instance<CallbackBatch> callbacks) {
    this.handler = handler;
    this.stepResults = stepResults;
    this.uploadEvents = uploadEvents;
    this.callbacks = callbacks;
  }

  /** Builds the handler's beans now and registers the codec priming (CDI {@link Startup}). */
  void register(@Observes Startup startup) {
    Instance<?> batch =
        switch (handler) {
          case StepResultsHandler.NAME -> stepResults;
          case UploadEventsHandler.NAME -> uploadEvents;
          case CallbacksHandler.NAME -> callbacks;
          default -> null;
        };
    if (batch != null) {
      ClientProxy.unwrap(batch.get()); // the batch bean itself, not its lazy proxy
    }
    registration = SnapStartPriming.register(ProgressPriming::prime);
  }

  /** The registration, kept for the process's lifetime. */
  SnapStartPriming registration() {
    return registration;
  }

  /**
   * Encodes and decodes a sample step message and its successful result.
   *
   * @throws dev.derive.protocol.message.MalformedMessageException if the codec cannot (a broken
   *     build, which should fail the deployment)
   */
  static void prime() {
    StepMessage step =
        new StepMessage(
            "0".repeat(64),
            0,
            1,
            Capabilities.IMAGE,
            List.of(
                new Operation(
                    Capabilities.RESIZE, Map.of("width", 256, "height", 256, "fit", "inside"))),
            ObjectRef.of("priming-source", "uploads/priming/sample.jpg"),
            "image/jpeg",
            ObjectRef.of("priming-derivatives", "derivatives/" + "0".repeat(64)),
            "image/jpeg",
            "priming");
    MessageCodec.decode(MessageCodec.encode(step), StepMessage.class);
    StepResult result = StepResult.success(step, 1, 0, 1, false);
    MessageCodec.decode(MessageCodec.encode(result), StepResult.class);
  }
}
